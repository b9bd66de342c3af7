#!/usr/bin/env bash
# Builds and runs Mnemo's libFuzzer targets (AddressSanitizer on) for the parsers of untrusted
# bytes: the three ingest readers with the record mapping, TextQuery, the WordPiece tokenizer
# and the safetensors header reader.
#
# usage: Scripts/fuzz/fuzz.sh TARGET [SECONDS] [extra libFuzzer flags]
#        Scripts/fuzz/fuzz.sh all [SECONDS]     every target in turn
#        Scripts/fuzz/fuzz.sh regress           replays the seed corpus and the saved crashers
# TARGET: jsonl extracted topics textquery wordpiece safetensors
# The seed corpus is Scripts/fuzz/corpus/TARGET (kept in git); new inputs libFuzzer finds go to
# .build/fuzz/corpus/TARGET, crashers to Scripts/fuzz/crashers/TARGET, to be kept as fixtures.
set -euo pipefail
cd "$(dirname "$0")/../.."
targets=(jsonl extracted topics textquery wordpiece safetensors)

sources_for() {
    local model=Sources/Mnemo/Model ingest=Sources/Mnemo/Ingestion encoder=Sources/MnemoEncoder
    case $1 in
        jsonl|extracted|topics)
            echo $ingest/{JSONLReader,DocumentReader,RecordReader,ByteChunks,JSONLineIndex,IngestRecord,IngestRecord+JSON,IngestRecord+Mapping,IngestRejection,IngestFormat}.swift \
                 $model/{TopicPath,TextNormalization,Timestamp,FactType,Importance,ValidatedFact,FactContent,MnemoError,Fact}.swift \
                 $model/Unicode/{FoldTables,FoldTables+Lookup,KeyFolding}.swift \
                 Sources/Mnemo/Embedding/Embedder.swift $model/{SourceList,JSONText}.swift ;;
        textquery) echo Sources/Mnemo/Search/TextQuery.swift ;;
        wordpiece) echo $encoder/{WordPieceTokenizer,WordPieceTokenizer+Loading,BertConfiguration,EmbeddingError}.swift \
                        Sources/Mnemo/Embedding/BertTextNormalizer.swift Sources/Mnemo/Utils/FNV1a.swift ;;
        safetensors) echo $encoder/{SafetensorsFile,EmbeddingError}.swift ;;
        *) echo "unknown target $1 (expected: ${targets[*]})" >&2; exit 2 ;;
    esac
}

# One module holds the target and the library files it needs, so the files that `import Mnemo`
# (the encoder's) are copied without that line.
build() {
    local target=$1 binary=.build/fuzz/$1 sources=.build/fuzz/src-$1
    rm -rf "$sources"; mkdir -p "$sources"
    for file in $(sources_for "$target"); do sed '/^import Mnemo$/d' "$file" > "$sources/$(basename "$file")"; done
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name MnemoFuzz -package-name MnemoFuzz \
        -D "FUZZ_$(echo "$target" | tr a-z A-Z)" "$sources"/*.swift Scripts/fuzz/FuzzTarget.swift -o "$binary"
}

run() {
    local target=$1 seconds=${2:-60}; shift 2 || shift $#
    build "$target"
    mkdir -p ".build/fuzz/corpus/$target" "Scripts/fuzz/crashers/$target"
    .build/fuzz/"$target" ".build/fuzz/corpus/$target" "Scripts/fuzz/corpus/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="Scripts/fuzz/crashers/$target/" "$@"
}

case ${1:-} in
    all) for target in "${targets[@]}"; do run "$target" "${2:-60}"; done ;;
    regress)
        for target in "${targets[@]}"; do
            build "$target"
            inputs=(Scripts/fuzz/corpus/"$target"/* Scripts/fuzz/crashers/"$target"/*)
            existing=(); for f in "${inputs[@]}"; do [ -f "$f" ] && existing+=("$f"); done
            echo "$target: ${#existing[@]} inputs"
            .build/fuzz/"$target" -runs=0 "${existing[@]}" > /dev/null 2>&1 || { echo "FAIL: $target"; exit 1; }
        done ;;
    "") echo "usage: $0 TARGET|all|regress [SECONDS]" >&2; exit 2 ;;
    *) run "$@" ;;
esac
