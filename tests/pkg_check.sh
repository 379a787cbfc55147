#!/bin/sh
# The installed package as a user consumes it: formats/pkg/install.sh (what `ninja install` runs)
# into a staging DESTDIR, then tests/pkg/consumer.c built with `pkg-config --cflags --libs spmv`
# by gcc, g++ and clang, with CMake's find_package(spmv) + spmv::spmv (C and C++), and
# tests/pkg/consumer.cu by nvcc where present; every program is run. Ends with a RESULT line.
set -u
cd "$(dirname "$0")/.."
stage=$(pwd)/build/pkg-stage
rm -rf "$stage" build/pkg-build
mkdir -p build/pkg-build
pass=0; fail=0; skip=0
full=${SPMV_TEST_FULL:-0} # 1: the full suite's consumers too (tests/run.sh --full)
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
if DESTDIR=$stage PREFIX=/usr/local sh formats/pkg/install.sh > build/pkg-build/install.log 2>&1 &&
    [ -f "$stage/usr/local/include/spmv/spmv.h" ] && [ -f "$stage/usr/local/include/spmv/spmv_mpi.h" ] &&
    [ -f "$stage/usr/local/include/spmv/formats/core/version.h" ] && [ -f "$stage/usr/local/include/spmv/formats/mpi/dist.h" ] &&
    [ -f "$stage/usr/local/lib/pkgconfig/spmv.pc" ] && [ -f "$stage/usr/local/lib/cmake/spmv/spmvConfig.cmake" ] &&
    ! [ -e "$stage/usr/local/include/spmv/formats/pkg" ]; then
    ok "install into DESTDIR=$stage PREFIX=/usr/local"
else
    bad "install (build/pkg-build/install.log)"; cat build/pkg-build/install.log
fi
# the README's own build lines, literally: its install block in this checkout and its project
# block in a directory holding the README's CPU quick start as prog.c, HOME a fresh directory;
# every program the project block compiles is run
home=$(pwd)/build/pkg-build/home
mkdir -p "$home/proj"
blk() { awk -v first="$1" '/^```/ { if (on) exit; if ($0 == "```sh") { getline; if ($0 == first) on = 1; next } }
    on' README.md; }
blk "# in the spmv checkout" > build/pkg-build/readme-install.sh
blk "# in your project (prog.c: the quick start below)" | awk '{ print } /^cc / { print "./prog | grep -q \"^success\" || exit 3" }' \
    > build/pkg-build/readme-project.sh
awk '/^## Quick start \(CPU\)/ { q = 1 } q && /^```c/ { on = 1; next } on && /^```/ { exit } on' README.md > "$home/proj/prog.c"
if [ -s build/pkg-build/readme-install.sh ] && [ "$(grep -c '^cc ' build/pkg-build/readme-project.sh)" = 2 ] && [ -s "$home/proj/prog.c" ] &&
    HOME=$home sh -e build/pkg-build/readme-install.sh > build/pkg-build/readme.log 2>&1 &&
    (cd "$home/proj" && HOME=$home sh -e ../../readme-project.sh) >> build/pkg-build/readme.log 2>&1; then
    ok "the README's install and build lines, run as written (two compile lines, each program run)"
else bad "the README's build lines (build/pkg-build/readme.log)"; tail -10 build/pkg-build/readme.log; fi
# a relocated install: the package files locate themselves (no sysroot, no prefix rewriting)
if [ -d "$home/.local" ] && mv "$home/.local" "$home/moved" &&
    PKG_CONFIG_PATH=$home/moved/lib/pkgconfig pkg-config --cflags spmv | grep -q "$home/moved/lib/pkgconfig/../../include" &&
    ! grep -q 'example.invalid' "$home/moved/lib/pkgconfig/spmv.pc" && [ ! -e "$home/moved/bin" ]; then
    ok "the installed tree moved elsewhere: pkg-config finds it; no placeholder URL; no tools unless asked"
else bad "relocation, placeholder URL or tools installed without install_tools"; fi
# PREFIX must be absolute
if PREFIX=relative DESTDIR=$stage sh formats/pkg/install.sh > /dev/null 2>&1; then bad "a relative PREFIX was accepted"; else ok "a relative PREFIX is refused"; fi
export PKG_CONFIG_PATH=$stage/usr/local/lib/pkgconfig
if command -v pkg-config > /dev/null 2>&1; then
    flags=$(pkg-config --cflags --libs spmv) && [ "$(pkg-config --modversion spmv)" = "$(sed -n 's/^#define SPMV_VERSION_MAJOR \([0-9]*\)/\1/p' formats/core/version.h).$(sed -n 's/^#define SPMV_VERSION_MINOR \([0-9]*\)/\1/p' formats/core/version.h).$(sed -n 's/^#define SPMV_VERSION_PATCH \([0-9]*\)/\1/p' formats/core/version.h)" ] &&
        ok "pkg-config: $flags" || bad "pkg-config --cflags --libs spmv / --modversion"
    # (g++ and clang consumers and the nvcc one in the full suite; the CMake
    # consumers below build C and C++ in the short one too)
    ccs="gcc -std=c11 -fopenmp"
    [ "$full" = 1 ] && ccs="$ccs|g++ -x c++ -fopenmp|clang -std=c11"
    IFS='|'; set -- $ccs; unset IFS
    for cc in "$@"; do
        name=$(echo "$cc" | cut -d' ' -f1)
        command -v "$name" > /dev/null 2>&1 || { skip=$((skip + 1)); echo "SKIP: $name not found"; continue; }
        # shellcheck disable=SC2086
        if $cc -O1 tests/pkg/consumer.c $flags -o "build/pkg-build/consumer-$name" > "build/pkg-build/$name.log" 2>&1 &&
            "build/pkg-build/consumer-$name" | grep -q '^ok:' &&
            $cc -O1 tests/pkg/consumer.c $(pkg-config --cflags --libs spmv-compiled) -fopenmp -o "build/pkg-build/consumer-lib-$name" >> "build/pkg-build/$name.log" 2>&1 &&
            "build/pkg-build/consumer-lib-$name" | grep -q '^ok:' &&
            "build/pkg-build/consumer-$name" | grep -q '^ok:'; then ok "pkg-config consumer built and run with $cc: header-only and against libspmv.a (spmv-compiled)"
        else bad "pkg-config consumer with $cc"; cat "build/pkg-build/$name.log"; fi
    done
    if [ "$full" != 1 ]; then skip=$((skip + 1)); echo "SKIP: the CUDA consumer (tests/run.sh --full)"
    elif command -v nvcc > /dev/null 2>&1; then
        if nvcc -std=c++17 -gencode arch=compute_90,code=sm_90 tests/pkg/consumer.cu $flags -o build/pkg-build/consumer-cu > build/pkg-build/nvcc.log 2>&1 &&
            build/pkg-build/consumer-cu | grep -q '^ok:'; then ok "CUDA consumer compiled, linked and run by nvcc ($(build/pkg-build/consumer-cu))"
        else bad "CUDA consumer with nvcc"; cat build/pkg-build/nvcc.log; fi
    else skip=$((skip + 1)); echo "SKIP: nvcc not found: the CUDA consumer not built"; fi
else
    skip=$((skip + 1)); echo "SKIP: pkg-config not found"
fi
# the distributed layer from the installed headers, with mpicc (tests/run.sh installs Open MPI)
if command -v mpicc > /dev/null 2>&1 && command -v pkg-config > /dev/null 2>&1; then
    printf '#include <mpi.h>\n#include <spmv/spmv.h>\n#include <spmv/spmv_mpi.h>\nint main(int c, char **v) {\n    spmv_d_dist D; spmv_error e; int r;\n    MPI_Init(&c, &v);\n    r = spmv_d_dist_from_mm(&D, MPI_COMM_WORLD, "/nonexistent.mtx", NULL, &e) == SPMV_ERR_IO;\n    MPI_Finalize();\n    if (r) printf("ok: the MPI layer from the installed headers\\n");\n    return !r;\n}\n' > build/pkg-build/mpi_consumer.c
    if PKG_CONFIG_PATH="$stage/usr/local/lib/pkgconfig" sh -c \
        'mpicc -O1 build/pkg-build/mpi_consumer.c $(pkg-config --cflags --libs spmv) -o build/pkg-build/mpi_consumer' > build/pkg-build/mpi.log 2>&1 &&
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 60 mpirun --oversubscribe --allow-run-as-root -np 2 \
        build/pkg-build/mpi_consumer 2>&1 | grep -q '^ok:'; then ok "MPI consumer (spmv_mpi.h installed, mpicc, 2 ranks)"
    else bad "MPI consumer (build/pkg-build/mpi.log)"; cat build/pkg-build/mpi.log; fi
else skip=$((skip + 1)); echo "SKIP: mpicc not found: the installed MPI layer not built"; fi
if command -v cmake > /dev/null 2>&1; then
    if cmake -S tests/pkg/cmake -B build/pkg-build/cmake -DCMAKE_PREFIX_PATH="$stage/usr/local" > build/pkg-build/cmake.log 2>&1 &&
        cmake --build build/pkg-build/cmake >> build/pkg-build/cmake.log 2>&1 &&
        build/pkg-build/cmake/consumer_c | grep -q '^ok:' && build/pkg-build/cmake/consumer_cpp | grep -q '^ok:' &&
        build/pkg-build/cmake/consumer_lib | grep -q '^ok:'; then
        ok "CMake consumer (find_package(spmv 0.1) + spmv::spmv, C and C++; spmv::compiled): $(grep -o 'spmv [0-9.]*: OpenMP.*' build/pkg-build/cmake.log)"
    else bad "CMake consumer (build/pkg-build/cmake.log)"; tail -20 build/pkg-build/cmake.log; fi
    # the example project a user copies (examples/cmake)
    if cmake -S examples/cmake -B build/pkg-build/example -DCMAKE_PREFIX_PATH="$stage/usr/local" > build/pkg-build/example.log 2>&1 &&
        cmake --build build/pkg-build/example >> build/pkg-build/example.log 2>&1 &&
        OMP_NUM_THREADS=2 build/pkg-build/example/spmv_example > build/pkg-build/example.out 2>&1 && grep -q '^ok:' build/pkg-build/example.out; then
        ok "examples/cmake built against the installed package and run: $(cat build/pkg-build/example.out)"
    else bad "examples/cmake (build/pkg-build/example.log)"; tail -20 build/pkg-build/example.log build/pkg-build/example.out 2>/dev/null; fi
    # the source tree as a subproject (the top-level CMakeLists.txt): add_subdirectory + spmv::spmv
    if [ "$full" != 1 ]; then skip=$((skip + 1)); echo "SKIP: add_subdirectory(spmv) (tests/run.sh --full)"; else
    mkdir -p build/pkg-build/sub
    printf 'cmake_minimum_required(VERSION 3.16)\nproject(sub C)\nadd_subdirectory("%s" spmv)\nadd_executable(sub "%s/examples/cmake/main.c")\ntarget_link_libraries(sub PRIVATE spmv::spmv)\n' "$(pwd)" "$(pwd)" > build/pkg-build/sub/CMakeLists.txt
    if cmake -S build/pkg-build/sub -B build/pkg-build/sub/b > build/pkg-build/sub.log 2>&1 && cmake --build build/pkg-build/sub/b >> build/pkg-build/sub.log 2>&1 &&
        OMP_NUM_THREADS=2 build/pkg-build/sub/b/sub 2>&1 | grep -q '^ok:'; then ok "add_subdirectory(spmv) + spmv::spmv (the top-level CMakeLists.txt)"
    else bad "add_subdirectory (build/pkg-build/sub.log)"; tail -20 build/pkg-build/sub.log; fi
    fi
    # spmv::cuda: .cu files compiled with OpenMP's flag for the host compiler, one CUDA runtime
    if command -v nvcc > /dev/null 2>&1 && command -v ninja > /dev/null 2>&1; then
        if cmake -G Ninja -S tests/pkg/cmake_cuda -B build/pkg-build/cmake_cuda -DCMAKE_PREFIX_PATH="$stage/usr/local" \
            -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" > build/pkg-build/cmake_cuda.log 2>&1 &&
            ninja -C build/pkg-build/cmake_cuda -t commands consumer_cu > build/pkg-build/cmake_cuda.cmd 2>&1 &&
            grep 'consumer.cu' build/pkg-build/cmake_cuda.cmd | grep -q -- '-Xcompiler=-fopenmp' &&
            [ "$(grep -- '-o consumer_cu' build/pkg-build/cmake_cuda.cmd | grep -o 'cudart[_a-z]*' | sort -u | wc -l)" = 1 ]; then
            ok "spmv::cuda: the .cu compile line has -Xcompiler=-fopenmp, the link line one CUDA runtime"
        else bad "spmv::cuda compile or link line (build/pkg-build/cmake_cuda.log, .cmd)"; tail -5 build/pkg-build/cmake_cuda.cmd build/pkg-build/cmake_cuda.log; fi
    else skip=$((skip + 1)); echo "SKIP: nvcc or ninja not found: spmv::cuda not checked"; fi
    # a newer major version than installed must not be found
    mkdir -p build/pkg-build/cmake2
    printf 'cmake_minimum_required(VERSION 3.16)\nproject(v2 C)\nfind_package(spmv 1.0 QUIET)\nif(spmv_FOUND)\n  message(FATAL_ERROR "spmv 1.0 found")\nendif()\n' > build/pkg-build/cmake2/CMakeLists.txt
    if cmake -S build/pkg-build/cmake2 -B build/pkg-build/cmake2/b -DCMAKE_PREFIX_PATH="$stage/usr/local" > build/pkg-build/cmake2.log 2>&1; then ok "find_package(spmv 1.0) refuses version 0.1"
    else bad "find_package(spmv 1.0) accepted 0.1"; fi
else
    skip=$((skip + 1)); echo "SKIP: cmake not found"
fi
echo "RESULT pkg_check passed=$pass failed=$fail skipped=$skip"
