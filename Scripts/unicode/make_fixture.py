#!/usr/bin/env python3
"""Writes Fixtures/folded-keys.json: tricky strings and their folded keys under the reference
definition in fold.py (Python's own `unicodedata` normalisation and `str.casefold`, not the
generated Swift tables).

    python3 Scripts/unicode/make_fixture.py

`FoldedKeyTests` checks Mnemo's keys against this file, so any change to the fold (a table
regenerated from another Unicode version, an edit to the algorithm) fails the tests. Remake the
file only together with a migration that recomputes the stored keys.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fold  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUTPUT = os.path.join(ROOT, 'Fixtures', 'folded-keys.json')

CASES = [
    ('ASCII', 'Lives in PORTO.'),
    ('ASCII, symbols kept at the end', 'Costs $5+'),
    ('percent sign is punctuation', 'Battery at 100%'),
    ('Turkish dotted capital I', 'İstanbul'),
    ('Turkish, upper case', 'ISTANBUL'),
    ('Turkish dotless i stays distinct', 'ıstanbul'),
    ('Turkish dotless i in a word', 'Diyarbakır'),
    ('i with combining dot above', 'i\u0307stanbul'),
    ('German sharp s', 'Straße'),
    ('German, upper case', 'STRASSE'),
    ('German capital sharp s', 'GROẞ'),
    ('ligature fi', 'ﬁnance'),
    ('ligature ffi', 'oﬃce'),
    ('ligature ff, upper case word', 'STAﬀ'),
    ('AE and OE letters', 'Æsir œuvre'),
    ('Dutch ij digraph', 'Ĳssel'),
    ('precomposed e acute', 'Café'),
    ('combining acute (NFD)', 'Cafe\u0301'),
    ('A ring, precomposed', 'Ångström'),
    ('A ring, decomposed', 'A\u030Angstro\u0308m'),
    ('angstrom sign', '\u212Bngstrom'),
    ('two marks, one order', 'e\u0323\u0302'),
    ('two marks, other order', 'e\u0302\u0323'),
    ('Vietnamese, precomposed', 'Tiếng Việt'),
    ('Vietnamese, decomposed', 'Tie\u0302\u0301ng Vie\u0323\u0302t'),
    ('Greek capitals with final sigma', 'ΟΔΥΣΣΕΥΣ'),
    ('Greek small with final sigma and tonos', 'Οδυσσεύς'),
    ('Greek iota subscript', 'ᾼ ᾳ'),
    ('Greek dialytika with tonos', 'ΐ'),
    ('ohm sign', '\u2126'),
    ('Kelvin sign', '\u212A'),
    ('Cyrillic yo and short i', 'Ёлка Йод'),
    ('Cyrillic Serbian dje', 'Ђорђе'),
    ('Cherokee (case folds to capitals)', 'ᏣᎳᎩ ꮳꮃꭹ'),
    ('full-width Latin', 'Ｍｎｅｍｏ ＡＢＣ１２３'),
    ('half-width katakana with voiced mark', 'ｶﾞ'),
    ('hiragana with dakuten, precomposed', 'がぱ'),
    ('hiragana with combining dakuten (NFD)', 'か\u3099は\u309A'),
    ('katakana prolonged word', 'コーヒー'),
    ('Hangul syllables', '한국어'),
    ('Hangul conjoining jamo (NFD)', '\u1112\u1161\u11AB\u1100\u116E\u11A8\u110B\u1165'),
    ('Hangul compatibility jamo', 'ㄱㄴㄷ'),
    ('Devanagari qa, precomposed', '\u0958'),
    ('Devanagari ka with nukta', '\u0915\u093C'),
    ('Devanagari vowel signs', 'हिन्दी'),
    ('Arabic hamza is kept', 'أحمد'),
    ('Hebrew points are kept', 'שָׁלוֹם'),
    ('Persian zero-width non-joiner', 'می\u200Cخواهم'),
    ('zero-width joiner between letters', 'x\u200Dy'),
    ('trailing zero width space', 'word\u200B'),
    ('emoji', 'Emoji 🙂.'),
    ('emoji ZWJ family', '👩\u200D👩\u200D👧'),
    ('emoji skin tone', '👍🏽 ok'),
    ('emoji with variation selector', '❤\uFE0F'),
    ('keycap', '#\uFE0F\u20E3'),
    ('flag', '🇵🇹 Porto'),
    ('Roman numeral and circled digit', 'Ⅻ ① ½'),
    ('title-case digraph', 'ǅemal'),
    ('apostrophe n', 'ŉ'),
    ('non-breaking and ideographic spaces', '\u00A0 Lives\u00A0in\u3000Porto \u2028'),
    ('tab and newline', 'one\ttwo\nthree'),
    ('mark after a space goes with the space', 'a \u0301b'),
    ('leading combining mark', '\u0301a'),
    ('Spanish inverted marks', '¿Qué?'),
    ('curly quotes and ellipsis', '“quoted”…'),
    ('CJK ideographs', '東京都'),
    ('mixed scripts', 'Porto, ポルト, Πόρτο, Порту'),
]

PATHS = [
    'Personal/Café',
    'PERSONAL/CAFE\u0301',
    'Reisen/Straße in  Köln',
    'İş/Proje',
    '한국/서울',
]


def main():
    cases = []
    for name, text in CASES:
        cases.append({'name': name, 'input': text, 'folded': fold.folded(text), 'factKey': fold.fact_key(text)})
    paths = [{'input': path, 'pathKey': fold.path_key(path)} for path in PATHS]
    document = {
        'about': 'Folded keys of tricky strings, made by Scripts/unicode/make_fixture.py from the reference '
                 'definition in Scripts/unicode/fold.py (Python unicodedata). FoldedKeyTests fails when '
                 'Mnemo computes a different key: the keys stored in databases must not change without '
                 'a migration.',
        'unicodeVersion': fold.UNICODE_VERSION,
        'cases': cases,
        'paths': paths,
    }
    with open(OUTPUT, 'w') as out:
        json.dump(document, out, ensure_ascii=False, indent=2)
        out.write('\n')
    print(f'wrote {OUTPUT}: {len(cases)} cases, {len(paths)} paths (Unicode {fold.UNICODE_VERSION})')


if __name__ == '__main__':
    main()
