#!/usr/bin/env python3
"""check_docs.py - every public declaration in the headers has a doc block.

Usage: check_docs.py DIR      check every .h file under DIR (include/)
       check_docs.py --selftest

The rule (docs/api.md, "How the headers are documented"):

Public declarations are
  - functions: declarations and definitions that start with TYJSON_API,
    TYJSON_INLINE or `static inline`;
  - types: every typedef (struct, union, enum, scalar, function pointer);
  - enum constants of those typedefs, and the status codes, the X(NAME, msg)
    entries of TYJSON_STATUS_MAP (each is the constant TYJSON_NAME);
  - macros: every #define of a TYJSON_ name (flags, limits, the binding
    macros, TYJSON_API ...) except the header's include guard. A macro
    defined in several #if branches counts once, at its first definition.
Names with a double underscore (tyjson__x, TYJSON__X) are internal and are
not counted; neither are struct and union members.

A declaration is documented when
  - a doc block `/** ... */` with some text ends on the line right above
    its first line (only #if/#ifdef/#ifndef/#elif/#else/#endif lines may
    stand between), or
  - its own line carries a trailing doc comment `/**< ... */`, or
  - it is a #define, an enum constant or a status code in a group: a run of
    adjacent lines of such declarations (no blank or other line between)
    whose first line is documented by a block above it. A group shares that
    one block; a member may add its own `/**< ... */`.
Plain comments (`/* ... */`, `//`, the MARK banners) never count.

Exit status: 0 when every declaration is documented, 1 otherwise (each
missing one printed as FILE:LINE: NAME (kind)), 2 on bad usage.
"""
import os
import re
import subprocess
import sys
import tempfile

DEFINE = re.compile(r'^\s*#\s*define\s+([A-Za-z_]\w*)')
IFNDEF = re.compile(r'^\s*#\s*ifndef\s+([A-Za-z_]\w*)')
CONDITIONAL = re.compile(r'^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b')
FUNCTION = re.compile(r'^\s*(TYJSON_API|TYJSON_INLINE|static\s+inline)\b')
CALL_NAME = re.compile(r'([A-Za-z_]\w*)\s*\(')
TYPEDEF = re.compile(r'^\s*typedef\b')
ENUM_OPEN = re.compile(r'^\s*typedef\s+enum\b')
ENUM_CONST = re.compile(r'^\s*(TYJSON_\w+)\s*(=[^,]*)?,?\s*(/\*.*)?$')
STATUS_ENTRY = re.compile(r'^\s*X\(\s*(\w+)\s*,')
TRAILING_DOC = re.compile(r'/\*\*<\s*\S')


def is_public(name):
    low = name.lower()
    return low.startswith('tyjson_') and not low.startswith('tyjson__')


class Decl:
    def __init__(self, name, kind, line, groupable):
        self.name, self.kind, self.line = name, kind, line
        self.groupable = groupable  # may share a group's block


def typedef_name(text):
    """The name a typedef statement (joined to one string) declares."""
    body = re.sub(r'\{.*\}', ' ', text, flags=re.S)
    pointer = re.search(r'\(\s*\*\s*([A-Za-z_]\w*)\s*\)', body)
    if pointer:
        return pointer.group(1)
    names = re.findall(r'[A-Za-z_]\w*', body.split(';')[0])
    return names[-1] if names else ''


def statement_text(lines, i):
    """Lines from i up to the first ';' outside braces (typedefs)."""
    depth, out = 0, []
    for line in lines[i:]:
        code = re.sub(r'/\*.*?\*/|//.*', '', line)
        out.append(code)
        depth += code.count('{') - code.count('}')
        if depth <= 0 and ';' in code:
            break
    return ' '.join(out)


def find_decls(lines):
    """Every public declaration of one header, in line order."""
    decls, defined, in_enum, in_status = [], set(), False, False
    prev_ifndef = None
    for i, line in enumerate(lines):
        num = i + 1
        if in_status:
            m = STATUS_ENTRY.match(line)
            if m:
                decls.append(Decl('TYJSON_' + m.group(1), 'status code', num, True))
            in_status = line.rstrip().endswith('\\')
            continue
        if in_enum:
            if line.lstrip().startswith('}'):
                in_enum = False
            else:
                m = ENUM_CONST.match(line)
                if m and is_public(m.group(1)):
                    decls.append(Decl(m.group(1), 'enum constant', num, True))
            continue
        m = DEFINE.match(line)
        if m:
            name = m.group(1)
            guard = name == prev_ifndef
            if is_public(name) and not guard and name not in defined:
                decls.append(Decl(name, 'macro', num, True))
            defined.add(name)
            in_status = name == 'TYJSON_STATUS_MAP' and line.rstrip().endswith('\\')
        elif FUNCTION.match(line):
            rest = FUNCTION.sub('', line)
            call = CALL_NAME.search(rest)
            if call and is_public(call.group(1)):
                decls.append(Decl(call.group(1), 'function', num, False))
        elif TYPEDEF.match(line):
            name = typedef_name(statement_text(lines, i))
            if is_public(name):
                decls.append(Decl(name, 'type', num, False))
            in_enum = bool(ENUM_OPEN.match(line)) and '}' not in line
        im = IFNDEF.match(line)
        prev_ifndef = im.group(1) if im else (prev_ifndef if not line.strip() else None)
    return decls


def block_above(lines, num):
    """True if a doc block with text ends right above line `num` (1-based)."""
    i = num - 2
    while i >= 0 and CONDITIONAL.match(lines[i]):
        i -= 1
    if i < 0 or not lines[i].rstrip().endswith('*/'):
        return False
    end = i
    while i >= 0 and '/*' not in lines[i]:
        i -= 1
    if i < 0:
        return False
    start = lines[i][lines[i].index('/*'):]
    if not start.startswith('/**') or start.startswith('/**<'):
        return False
    text = ' '.join(lines[i:end + 1])
    text = text[text.index('/**') + 3:text.rindex('*/')]
    return bool(re.sub(r'[\s*\\]', '', text))


def line_owners(lines, decls):
    """Maps each 0-based line index to the declaration on it: a macro owns
    its continuation lines too (the status codes inside TYJSON_STATUS_MAP
    own their own lines)."""
    owners = {}
    for d in decls:
        i = d.line - 1
        owners[i] = d
        while d.kind == 'macro' and lines[i].rstrip().endswith('\\') and i + 1 < len(lines):
            i += 1
            if d.name == 'TYJSON_STATUS_MAP':
                break
            owners[i] = d
    return owners


def undocumented(lines, decls):
    owners = line_owners(lines, decls)
    ok, by_block = {}, {}
    for d in decls:  # in line order, so a group's earlier lines are known
        prev = owners.get(d.line - 2)
        in_group = (d.groupable and prev is not None and prev is not d
                    and prev.kind == d.kind and by_block[prev.line])
        # A group shares the block above its first line, not a member's
        # trailing comment.
        by_block[d.line] = block_above(lines, d.line) or in_group
        ok[d.line] = by_block[d.line] or bool(TRAILING_DOC.search(lines[d.line - 1]))
    return [d for d in decls if not ok[d.line]]


def check_dir(root):
    missing, total = [], 0
    for base, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if not name.endswith('.h'):
                continue
            path = os.path.join(base, name)
            with open(path, encoding='utf-8') as f:
                lines = f.read().split('\n')
            decls = find_decls(lines)
            total += len(decls)
            missing += [(path, d) for d in undocumented(lines, decls)]
    for path, d in missing:
        print('%s:%d: %s (%s)' % (path, d.line, d.name, d.kind))
    print('check_docs: %d of %d public declarations documented, %d missing'
          % (total - len(missing), total, len(missing)))
    return 1 if missing else 0


SELFTEST_HEADER = r'''#ifndef TYJSON_SELF_H
#define TYJSON_SELF_H
/* ---- MARK: a plain banner does not document ---- */
/** Documented function. */
TYJSON_API int tyjson_doc_fn(int x);
TYJSON_API int tyjson_bare_fn(int x);
/* A plain comment is not a doc block. */
TYJSON_INLINE int tyjson_plain_fn(int x) { return x; }
/**
 * Documented inline.
 */
TYJSON_INLINE int tyjson_doc_inline(int x) { return x; }
static inline int tyjson_bare_inline(int x) { return x; }
TYJSON_INLINE int tyjson__internal(int x) { return x; }
/** A group of flags. */
#define TYJSON_SELF_A 1u
#define TYJSON_SELF_B 2u

#define TYJSON_SELF_LONE 3u
#define TYJSON_SELF_TRAIL 4u /**< Trailing doc. */
#define TYJSON__PRIVATE 5u
/** Documented, multi-line. */
#define TYJSON_SELF_MULTI(x) \
    ((x) + 1)
#define TYJSON_SELF_AFTER_MULTI 6u

#define TYJSON_SELF_AFTER_TRAIL 8u /**< Trailing doc. */
#define TYJSON_SELF_TRAIL_ONLY 9u
/** */
#define TYJSON_SELF_EMPTY_BLOCK 7u
/** Documented type. */
typedef struct tyjson_doc_t { int a; } tyjson_doc_t;
typedef struct tyjson_bare_t tyjson_bare_t;
typedef int (*tyjson_bare_cb)(void *ctx);
/** Enum. */
typedef enum tyjson_self_enum {
    TYJSON_SELF_E0 = 0, /**< Trailing doc. */
    TYJSON_SELF_E1,
    /** Block above. */
    TYJSON_SELF_E2
} tyjson_self_enum;
/** Codes. */
#define TYJSON_STATUS_MAP(X) \
    X(OK, "success") /**< Trailing doc. */ \
    X(E_BARE, "no doc")
#if defined(X)
/** Documented in its first branch. */
#  define TYJSON_SELF_BRANCH 1
#else
#  define TYJSON_SELF_BRANCH 2
#endif
#endif
'''

SELFTEST_MISSING = {
    'tyjson_bare_fn', 'tyjson_plain_fn', 'tyjson_bare_inline',
    'TYJSON_SELF_LONE', 'TYJSON_SELF_EMPTY_BLOCK', 'TYJSON_SELF_TRAIL_ONLY',
    'tyjson_bare_t', 'tyjson_bare_cb', 'TYJSON_SELF_E1', 'TYJSON_E_BARE',
}


def selftest():
    """Runs the checker on a header with known gaps: it must flag exactly
    the undocumented declarations, then pass once they are documented."""
    me = os.path.abspath(__file__)
    with tempfile.TemporaryDirectory() as tmp:
        header = os.path.join(tmp, 'self.h')
        with open(header, 'w', encoding='utf-8') as f:
            f.write(SELFTEST_HEADER)
        run = subprocess.run([sys.executable, me, tmp], capture_output=True, text=True)
        flagged = set(re.findall(r'^.*self\.h:\d+: (\w+) ', run.stdout, re.M))
        if run.returncode != 1 or flagged != SELFTEST_MISSING:
            print(run.stdout)
            print('FAIL: exit %d; flagged but documented: %s; missed: %s'
                  % (run.returncode, sorted(flagged - SELFTEST_MISSING),
                     sorted(SELFTEST_MISSING - flagged)))
            return 1
        fixed = SELFTEST_HEADER
        for name in SELFTEST_MISSING:
            fixed = fix_one(fixed, name)
        with open(header, 'w', encoding='utf-8') as f:
            f.write(fixed)
        run = subprocess.run([sys.executable, me, tmp], capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stdout)
            print('FAIL: a fully documented header was refused')
            return 1
    print('check_docs selftest: exactly the %d undocumented declarations flagged'
          % len(SELFTEST_MISSING))
    return 0


def fix_one(text, name):
    """The selftest header with `name` documented by a trailing doc comment."""
    out = []
    for line in text.split('\n'):
        bare = name[len('TYJSON_'):] if name.startswith('TYJSON_E_') else name
        if re.search(r'\b%s\b' % re.escape(bare), line) and '/**<' not in line:
            if line.rstrip().endswith('\\'):
                line = line.rstrip()[:-1] + '/**< Fixed. */ \\'
            else:
                line += ' /**< Fixed. */'
        out.append(line)
    return '\n'.join(out)


def main(argv):
    if len(argv) == 2 and argv[1] == '--selftest':
        return selftest()
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    return check_dir(argv[1])


if __name__ == '__main__':
    sys.exit(main(sys.argv))
