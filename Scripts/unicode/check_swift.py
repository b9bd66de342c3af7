#!/usr/bin/env python3
"""Checks the Swift fold against the reference definition (fold.py) on every assigned scalar,
every combining mark in context and 200,000 random strings (seeded):

    python3 Scripts/unicode/check_swift.py

Compiles the four source files of the fold with `swiftc -O` into a temporary program that folds
each input, then compares its folded form, fact key, collapsed whitespace and trimmed text with
Python's. Takes about a minute; prints the number of differences (0 expected).
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import unicodedata as ud

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fold  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCES = [os.path.join(ROOT, 'Sources', 'Mnemo', 'Model', path) for path in
           ['Unicode/FoldTables.swift', 'Unicode/FoldTables+Lookup.swift', 'Unicode/KeyFolding.swift',
            'TextNormalization.swift']]
MAIN = '''
import Foundation
@main struct Check {
    static func main() throws {
        let input = try String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8)
        var out = ""
        for line in input.split(separator: "\\n") {
            let s = try JSONDecoder().decode(String.self, from: Data(line.utf8))
            let row = [TextNormalization.folded(s), TextNormalization.factKey(s),
                       TextNormalization.collapsingWhitespace(s), TextNormalization.trimmed(s)]
            out += String(decoding: try JSONEncoder().encode(row), as: UTF8.self) + "\\n"
        }
        try out.write(toFile: CommandLine.arguments[2], atomically: true, encoding: .utf8)
    }
}
'''


def inputs():
    random.seed(7)
    assigned = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and ud.category(chr(c)) != 'Cn']
    marks = [c for c in assigned if fold.is_mark(chr(c))]
    interesting = [c for c in assigned if ud.decomposition(chr(c)) or chr(c).casefold() != chr(c) or ud.combining(chr(c))]
    spaces = [0x20, 0x9, 0xA, 0xA0, 0x3000, 0x200B, 0x200D, 0x2028]
    texts = [chr(c) for c in assigned]
    for c in marks:
        texts += ['a' + chr(c), '\u0915' + chr(c), ' ' + chr(c) + 'x', chr(c) + '\u0345']
    pool = (interesting * 3 + marks + spaces * 50 + list(range(0x41, 0x7B)) * 3 + list(range(0xAC00, 0xAC40))
            + list(range(0x1100, 0x1175)) + list(range(0x11A8, 0x11C3)))
    for _ in range(200_000):
        texts.append(''.join(chr(random.choice(pool)) for _ in range(random.randint(1, 8))))
    return texts


def trimmed(text):
    is_space = lambda ch: ord(ch) in fold.WHITE_SPACE or ord(ch) == fold.ZERO_WIDTH_SPACE  # noqa: E731
    start, end = 0, len(text)
    while start < end and is_space(text[start]):
        start += 1
    while end > start and is_space(text[end - 1]):
        end -= 1
    return text[start:end]


def main():
    texts = inputs()
    with tempfile.TemporaryDirectory() as folder:
        main_file, program = os.path.join(folder, 'main.swift'), os.path.join(folder, 'check')
        in_file, out_file = os.path.join(folder, 'in.jsonl'), os.path.join(folder, 'out.jsonl')
        with open(main_file, 'w') as out:
            out.write(MAIN)
        with open(in_file, 'w') as out:
            out.writelines(json.dumps(text) + '\n' for text in texts)
        subprocess.run(['swiftc', '-O', '-parse-as-library', '-module-name', 'Check', *SOURCES, main_file,
                        '-o', program], check=True)
        subprocess.run([program, in_file, out_file], check=True)
        with open(out_file) as results:
            swift = [json.loads(line) for line in results]
    names = ['folded', 'factKey', 'collapsed', 'trimmed']
    differences = {name: 0 for name in names}
    for text, row in zip(texts, swift):
        expected = [fold.folded(text), fold.fact_key(text), fold.collapse_whitespace(text), trimmed(text)]
        for name, want, got in zip(names, expected, row):
            if want != got:
                differences[name] += 1
                if differences[name] <= 5:
                    print(f'{name} of {text!r}: Python {want!r}, Swift {got!r}')
    print(f'{len(texts)} inputs (Unicode {fold.UNICODE_VERSION}), differences: {differences}')
    sys.exit(1 if any(differences.values()) or len(swift) != len(texts) else 0)


if __name__ == '__main__':
    main()
