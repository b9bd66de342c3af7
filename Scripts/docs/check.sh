#!/usr/bin/env bash
# Builds the DocC documentation of the library products (Mnemo with its catalog
# Sources/Mnemo/Mnemo.docc, and MnemoEncoder) with the toolchain's `docc`, and fails when docc
# reports any warning (a broken symbol link, an unknown article, a malformed directive).
#
# Usage: Scripts/docs/check.sh [OUTPUT_DIR]   (default .build/docs; run from anywhere)
#
# `swift package dump-symbol-graph` builds the package in debug mode (reusing .build) and
# writes the symbol graphs of its modules; `docc convert` then builds one archive per module,
# as the swift-docc-plugin's `generate-documentation` would, without adding the plugin to
# Package.swift. An archive opens in Xcode, or serves with `docc preview`.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-.build/docs}"
mkdir -p "$out"
log="$out/docc.log"
: >"$log"

echo "== symbol graphs (swift package dump-symbol-graph; builds the package if needed)"
# It also tries the test modules, which a build without tests has not compiled ("Couldn't load
# module 'MnemoPackageTests'"), and then exits non-zero: only the documented modules' graphs count.
dump_output="$(swift package dump-symbol-graph --minimum-access-level public --skip-inherited-docs \
    --emit-extension-block-symbols 2>&1)" || true
graphs="$(printf '%s\n' "$dump_output" | sed -n 's/^Files written to //p' | tail -1)"
if [ -z "$graphs" ] || [ ! -d "$graphs" ]; then
    graphs="$(find .build -type d -name symbolgraph -newer Package.swift | head -1)"
fi
for module in Mnemo MnemoEncoder; do
    [ -f "$graphs/$module.symbols.json" ] || {
        echo "no symbol graph of $module"; printf '%s\n' "$dump_output" | tail -40; exit 1
    }
done

warnings=0
for module in Mnemo MnemoEncoder; do
    module_graphs="$(mktemp -d)"
    trap 'rm -rf "$module_graphs"' EXIT
    # The module's own graph and its extensions of other modules' types (Module@Other).
    cp "$graphs/$module.symbols.json" "$module_graphs/"
    find "$graphs" -name "$module@*.symbols.json" -exec cp {} "$module_graphs/" \;
    catalog=()
    [ -d "Sources/$module/$module.docc" ] && catalog=("Sources/$module/$module.docc")
    echo "== docc convert $module"
    docc convert "${catalog[@]}" \
        --additional-symbol-graph-dir "$module_graphs" \
        --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
        --output-path "$out/$module.doccarchive" 2>&1 | tee -a "$log"
    rm -rf "$module_graphs"
    trap - EXIT
done
warnings="$(grep -c 'warning:' "$log" || true)"
errors="$(grep -c 'error:' "$log" || true)"
echo "== $warnings warning(s), $errors error(s); archives in $out"
[ "$warnings" -eq 0 ] && [ "$errors" -eq 0 ]
