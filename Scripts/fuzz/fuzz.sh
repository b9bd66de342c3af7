#!/usr/bin/env bash
# Builds and runs Mnemo's libFuzzer targets (AddressSanitizer on) for the parsers of untrusted
# bytes: the three ingest readers with the record mapping, TextQuery, the WordPiece tokenizer
# and the safetensors header reader. Linux only (libFuzzer's runtime ships with the Linux
# toolchain).
#
# usage: Scripts/fuzz/fuzz.sh TARGET [SECONDS] [extra libFuzzer flags]
#        Scripts/fuzz/fuzz.sh all [SECONDS]     every target in turn
#        Scripts/fuzz/fuzz.sh regress           replays the seed corpus and the saved crashers
# TARGET: jsonl extracted topics textquery wordpiece safetensors
# The seed corpus is Scripts/fuzz/corpus/TARGET (kept in git); new inputs libFuzzer finds go to
# .build-fuzz/corpus/TARGET, crashers to Scripts/fuzz/crashers/TARGET, to be kept as fixtures.
set -euo pipefail
cd "$(dirname "$0")/../.."
targets=(jsonl extracted topics textquery wordpiece safetensors)
scratch=.build-fuzz
binary=$scratch/release/MnemoFuzz
# Swift's crash backtracer would catch a failed check's trap before libFuzzer, and its reading of
# the crashed stack trips AddressSanitizer; libFuzzer reports the crash and saves the input.
export SWIFT_BACKTRACE=enable=no

# One release build of the package's MnemoFuzz executable (Scripts/fuzz/MnemoFuzz) serves every
# target: AddressSanitizer and libFuzzer's coverage instrumentation in every module it links
# (Mnemo, MnemoEncoder, GRDB), FUZZING defined so that its main hands over to libFuzzer, and
# libFuzzer's runtime without libFuzzer's own main (it needs the C++ library).
build() {
    local resources runtime
    resources=$(swiftc -print-target-info | sed -n 's/^ *"runtimeResourcePath": "\(.*\)",*$/\1/p')
    runtime=$resources/clang/lib/linux/libclang_rt.fuzzer_no_main-$(uname -m).a
    [ -f "$runtime" ] || { echo "no libFuzzer runtime at $runtime" >&2; exit 2; }
    swift build -c release --scratch-path "$scratch" --product MnemoFuzz --sanitize address \
        -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp -Xswiftc -DFUZZING \
        -Xlinker "$runtime" -Xlinker -lstdc++
}

run() {
    local target=$1 seconds=${2:-60}; shift 2 || shift $#
    mkdir -p "$scratch/corpus/$target" "Scripts/fuzz/crashers/$target"
    "$binary" "$target" "$scratch/corpus/$target" "Scripts/fuzz/corpus/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="Scripts/fuzz/crashers/$target/" "$@"
}

case ${1:-} in
    "") echo "usage: $0 TARGET|all|regress [SECONDS]" >&2; exit 2 ;;
    all) build; for target in "${targets[@]}"; do run "$target" "${2:-60}"; done ;;
    regress)
        build
        log=$scratch/regress.log
        for target in "${targets[@]}"; do
            inputs=(Scripts/fuzz/corpus/"$target"/* Scripts/fuzz/crashers/"$target"/*)
            existing=(); for f in "${inputs[@]}"; do [ -f "$f" ] && existing+=("$f"); done
            echo "$target: ${#existing[@]} inputs"
            [ ${#existing[@]} -gt 0 ] || continue
            "$binary" "$target" -runs=0 "${existing[@]}" > "$log" 2>&1 || { tail -n 30 "$log"; echo "FAIL: $target"; exit 1; }
        done ;;
    *)
        case " ${targets[*]} " in *" $1 "*) ;; *) echo "unknown target $1 (expected: ${targets[*]})" >&2; exit 2 ;; esac
        build; run "$@" ;;
esac
