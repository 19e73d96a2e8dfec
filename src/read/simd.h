/*
 * simd.h - run-time CPU dispatch for the reading core's kernels: the
 * string scanner and the line feed counter (here) and the structural
 * indexer (read/index.h).
 *
 * tyjson__str_scan_plain (lex.h) looks at the first 16 bytes of a string
 * inline with SWAR, which is where most keys end, and hands the rest to
 * tyjson__str_scan_long: one indirect call to the best kernel this CPU has.
 * The library itself is compiled for the baseline ISA; the vector kernels
 * are compiled per function with the target attribute and chosen at run
 * time, so one binary runs on any x86-64. Every kernel returns exactly what
 * the portable one returns.
 *
 * Choosing the level:
 *   - On first use the CPU is probed once (AVX-512 F/BW/VBMI2 or AVX2, with
 *     carry-less multiplication and OS support for the registers, on x86-64
 *     with GCC or clang; NEON on little-endian AArch64; everything else
 *     is scalar).
 *   - The environment variable TYJSON_SIMD, read once at that point, names
 *     a level: scalar, avx2, avx512 or neon (one the CPU lacks, or an
 *     unknown name, means the best one): to rule the vector code out when
 *     chasing a bug, or to measure one kernel against another.
 *   - tyjson__simd_set_level() overrides both at any time (for tests and
 *     benchmarks); it is not meant to be called while other threads parse.
 * The choice is kept in atomics written with the same value by whichever
 * thread initializes first, so concurrent first use is safe.
 */
#ifndef TYJSON_SIMD_H
#define TYJSON_SIMD_H

#include "read/index.h"

/* Whether the NEON kernels are built: AArch64, little-endian (their masks
 * take byte i of a vector as bit i). */
#if defined(__aarch64__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    !defined(TYJSON_NO_SIMD)
#  define TYJSON__NEON 1
#else
#  define TYJSON__NEON 0
#endif

/* Kernel levels, in order of preference. */
#define TYJSON__SIMD_AUTO (-1)  /* probe again (honours TYJSON_SIMD) */
#define TYJSON__SIMD_SCALAR 0   /* portable SWAR / byte loop */
#define TYJSON__SIMD_AVX2 1     /* 32 bytes per step, x86-64 */
#define TYJSON__SIMD_AVX512 2   /* 64 bytes per step, x86-64 with AVX-512 F+BW */
#define TYJSON__SIMD_NEON 3     /* 16 bytes per step, AArch64 */

/**
 * Same contract as tyjson__str_scan_plain (lex.h), for a p that lies on a
 * character boundary: scans with the kernel chosen for this CPU.
 */
tyjson__str_scan tyjson__str_scan_long(const u8 *p, const u8 *end, bool allow_invalid);

/** The portable kernel, whatever the level (tests compare against it). */
tyjson__str_scan tyjson__str_scan_scalar(const u8 *p, const u8 *end, bool allow_invalid);

/** The line feeds of a run of bytes: how many, and the last (NULL if none). */
typedef struct tyjson__lf_count {
    usize count;
    const u8 *last;
} tyjson__lf_count;

/** The line feeds of [p, end), counted with the kernel chosen for this CPU. */
tyjson__lf_count tyjson__count_lf(const u8 *p, const u8 *end);

/** The portable line feed counter, whatever the level (tests compare against it). */
tyjson__lf_count tyjson__count_lf_scalar(const u8 *p, const u8 *end);

/**
 * Uses `level` (a TYJSON__SIMD_* value) from now on, lowered to the best
 * level the CPU supports; TYJSON__SIMD_AUTO probes the CPU and the
 * environment again.
 */
void tyjson__simd_set_level(int level);

/** The level in use (probing the CPU first if nothing has yet). */
int tyjson__simd_level(void);

/** Whether `level` can run where `best` is the CPU's best level. */
bool tyjson__simd_level_ok(int level, int best);

/** The structural indexer's kernel for `level` (index_x86.c etc.). */
tyjson__index_fn tyjson__index_kernel_for(int level);

#endif /* TYJSON_SIMD_H */
