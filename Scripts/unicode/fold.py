"""The reference definition of Mnemo's folded keys, in Python.

`content_key` (a fact's duplicate key) and `path_key` (a topic's lookup key) are defined here, on
Python's `unicodedata` (its Unicode version is the one the generated Swift tables carry).
`generate_tables.py` turns the same definition into `Sources/Mnemo/Model/Unicode/FoldTables.swift`,
and `make_fixture.py` writes `Fixtures/folded-keys.json` with it: the Swift code is checked
against this independent implementation, not against itself.

The fold, in order:
1. Whitespace: runs of White_Space scalars (with any marks or joiners attached to them) become
   one space; leading and trailing ones go.
2. Canonical decomposition (NFD).
3. Accents: combining marks (general category M*) that follow a letter of the Latin, Greek or
   Cyrillic blocks (below U+0510) are dropped; in other scripts marks are kept (a Japanese
   dakuten, a Devanagari nukta or an Arabic hamza changes the letter, it is not an accent).
   This is the rule of Foundation's `folding(options: [.caseInsensitive,
   .diacriticInsensitive])`, which the keys used before, so ordinary text keeps its keys.
4. Full case folding (CaseFolding.txt statuses C and F: `ß` → `ss`, `ﬁ` → `fi`, `ς` → `σ`,
   `İ` → `i` once its dot is dropped as an accent; no Turkish special case).
5. Canonical composition (NFC), so that Hangul, kana with dakuten and the like keep their
   precomposed form.
A fact key is the fold with trailing punctuation (P*), White_Space and U+200B removed.
"""
import unicodedata as ud

UNICODE_VERSION = ud.unidata_version

# PropList.txt White_Space (unchanged since Unicode 6.3).
WHITE_SPACE = frozenset(list(range(0x09, 0x0E)) + [0x20, 0x85, 0xA0, 0x1680] + list(range(0x2000, 0x200B))
                        + [0x2028, 0x2029, 0x202F, 0x205F, 0x3000])
# What a fact key also drops at the end: ZERO WIDTH SPACE, which Foundation's `whitespaces` set
# (used for fact keys before) contains.
ZERO_WIDTH_SPACE = 0x200B
JOINERS = frozenset([0x200C, 0x200D])
LATIN_GREEK_CYRILLIC_END = 0x0510


def is_mark(ch):
    return ud.category(ch).startswith('M')


def is_punctuation(ch):
    return ud.category(ch).startswith('P')


def collapse_whitespace(text):
    words, word, in_space = [], [], False
    for ch in text:
        if ord(ch) in WHITE_SPACE:
            in_space = True
        elif in_space and (is_mark(ch) or ord(ch) in JOINERS):
            continue  # attached to the space (one grapheme with it), goes with it
        else:
            if in_space and word:
                words.append(''.join(word))
                word = []
            in_space = False
            word.append(ch)
    if word:
        words.append(''.join(word))
    return ' '.join(words)


def case_fold(ch):
    """The full case folding of one decomposed scalar, decomposed."""
    return ud.normalize('NFD', ch.casefold())


def fold_collapsed(text):
    out, strips_marks = [], False
    for ch in ud.normalize('NFD', text):
        if is_mark(ch) and strips_marks:
            continue
        for piece in case_fold(ch):
            if is_mark(piece):
                if strips_marks:
                    continue
            else:
                strips_marks = ord(piece) < LATIN_GREEK_CYRILLIC_END
            out.append(piece)
    return ud.normalize('NFC', ''.join(out))


def folded(text):
    return fold_collapsed(collapse_whitespace(text))


def fact_key(content):
    key = folded(content)
    while key and (is_punctuation(key[-1]) or ord(key[-1]) in WHITE_SPACE or ord(key[-1]) == ZERO_WIDTH_SPACE):
        key = key[:-1]
    return key


def path_key(path):
    """The key of a topic path (segments split on `/`, each collapsed and folded)."""
    return '/'.join(folded(segment) for segment in path.split('/'))
