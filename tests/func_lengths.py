#!/usr/bin/env python3
"""Function lengths in the library's headers (formats/, spmv.h, spmv_cuda.cuh): every
top-level brace block that follows a parameter list, in lines from its signature to its
closing brace. usage: tests/func_lengths.py [LIMIT]: prints the functions longer than LIMIT
(default 80) as 'lines file:line name'."""
import glob, re, sys

def strip(text):
    # comments, strings and character literals blanked (newlines kept); preprocessor lines dropped
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2); j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif text.startswith('//', i):
            j = text.find('\n', i); j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + ' ' * (j - i - 1) + c if j < n else ''); i = j + 1
        else:
            out.append(c); i += 1
    lines = ''.join(out).split('\n')
    keep, cont = [], False
    for l in lines:
        pre = cont or l.lstrip().startswith('#')
        cont = pre and l.rstrip().endswith('\\')
        keep.append('' if pre else l)
    return keep

def functions(path):
    L = strip(open(path, encoding='utf-8', errors='replace').read())
    depth, start, sig = 0, None, ''
    for no, line in enumerate(L, 1):
        for ch in line:
            if ch == '{':
                # an '=' before the parameters is an initializer, not a function (a default
                # template argument, template <typename A = T>, is neither)
                head = re.sub(r'template\s*<[^>]*>', '', sig).split('(')[0]
                if depth == 0 and re.search(r'\)\s*(const\s*)?$', sig.strip()) and '=' not in head:
                    start = (no, sig)
                depth += 1
            elif ch == '}':
                depth -= 1
                if depth == 0 and start:
                    s_no, s = start
                    s = s.lstrip()
                    skip = {'__attribute__', '__launch_bounds__', 'format', 'printf', 'SPMV_KTARGET'}
                    m = re.findall(r'(\w+)\)\s*\(', s) or [w for w in re.findall(r'(\w+)\s*\(', s) if w not in skip]
                    first = s_no - s.count('\n')
                    yield no - first + 1, first, m[-1] if re.search(r'\w+\)\s*\(', s) and m else (m[0] if m else '?')
                    start = None
                if depth == 0: sig = ''
            elif ch == ';' and depth == 0:
                sig = ''
            elif depth == 0:
                sig += ch
        if depth == 0: sig += '\n'
    return

if __name__ == '__main__':
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 80
    files = sorted(glob.glob('formats/**/*.h', recursive=True) + glob.glob('formats/**/*.cuh', recursive=True)) + ['spmv.h', 'spmv_cuda.cuh']
    rows = []
    for f in files:
        for n, line, name in functions(f):
            if n > limit: rows.append((n, f, line, name))
    for n, f, line, name in sorted(rows, reverse=True):
        print(f'{n} {f}:{line} {name}')
