/* The per-line view of a kernel (--source), as reports hold it: its patched instructions
 * (gpuprof/sass_source.h) grouped by kernel and by source line, each line with what its
 * instructions executed and moved, and the excess of its global sectors over the ideal.
 * Plain data, built from the counters, rendered by src/render/, loaded back from JSON. */
#ifndef GPUPROF_SOURCE_VIEW_H
#define GPUPROF_SOURCE_VIEW_H

#include "gpuprof/sass_source.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One source line of a kernel (or, without line information, one instruction). Its counts
 * come first, as an instruction's do, so that one column of the per-line part reads either
 * (report/source_part.c). */
typedef struct {
    uint64_t counts[GP_SRC_COUNTERS];  /* its instructions' sums */
    char *file;                        /* NULL: no line information */
    uint32_t line;                     /* 0 with file NULL */
    char *text;                        /* its text when the view was recorded, without its
                                          indentation; NULL: not recorded (its file could not
                                          be read then, or a report from before lines kept it) */
} gp_source_line;

/* A file of a kernel's lines as it was when the view was recorded: a report read later, after
 * an edit or elsewhere, tells what its lines' text was and whether the file still is. */
typedef struct {
    char *path;                        /* as the line information names it */
    uint64_t hash;                     /* FNV-1a (64 bits) of its bytes */
    bool read;                         /* false: it could not be read then, and has no hash */
} gp_source_file;

/* One instruction, under its line. */
typedef struct {
    uint64_t counts[GP_SRC_COUNTERS];
    uint32_t pc;                       /* offset in the kernel's code */
    size_t line;                       /* index of its line in the kernel's lines */
} gp_source_pc;

typedef struct {
    char *kernel;                      /* mangled name */
    gp_source_line *lines;             /* in file and line order */
    size_t n_lines;
    gp_source_pc *pcs;                 /* in pc order */
    size_t n_pcs;
    bool has_lines;                    /* its code had line information */
    gp_source_file *files;             /* the files its lines name, in first-line order */
    size_t n_files;                    /* 0: not recorded (a report from before) */
    uint64_t code;                     /* the CRC of the cubin of its instructions (its
                                          first's); 0: not known */
} gp_source_kernel;

/* The kernels of a set of instructions (from one or more patched launches), each kernel's
 * lines and instructions; *n kernels, in the order their first instruction came. */
int gp_source_view_build(const gp_source_instruction *v, size_t n_instructions,
                         gp_source_kernel **out, size_t *n);
void gp_source_view_free(gp_source_kernel *k, size_t n);
/* One kernel's name, lines and instructions freed (the kernel left empty). */
void gp_source_kernel_clear(gp_source_kernel *k);
/* A deep copy (for reports copied whole). */
int gp_source_view_copy(const gp_source_kernel *from, size_t n, gp_source_kernel **out);

/* Derived figures of a line or instruction's counts. */
uint64_t gp_source_requests(const uint64_t *counts);        /* global loads + stores */
uint64_t gp_source_excess(const uint64_t *counts);          /* sectors over the ideal */
uint64_t gp_source_shared_requests(const uint64_t *counts); /* shared loads + stores */
uint64_t gp_source_shared_excess(const uint64_t *counts);   /* wavefronts over the ideal */
uint64_t gp_source_local_requests(const uint64_t *counts);  /* local loads + stores */
/* Whether it moves global, shared or local memory at all. */
bool gp_source_moves_memory(const uint64_t *counts);
/* The kernel's global excess and shared excess, summed over its lines. */
uint64_t gp_source_kernel_excess(const gp_source_kernel *k);
uint64_t gp_source_kernel_shared_excess(const gp_source_kernel *k);

/* The bytes the views keep of a line's text. */
#define GP_SOURCE_TEXT_LEN 300
/* Line `line` of a source file, without its indentation, in buf; "" when the file cannot be
 * read (the per-line view shows it where the line information's path is readable). */
void gp_source_line_text(const char *file, uint32_t line, char *buf, size_t len);

/* ---- lines as they were (report/source_record.c) ------------------------------------------ */

/* The kernels' files read once, right after their views are built (gp_source_view_build), as
 * the report is recorded: each file's hash, each line's text. A file that cannot be read (or
 * is not a regular file, or is over GP_SOURCE_FILE_MAX bytes) is recorded unread. */
#define GP_SOURCE_FILE_MAX (16u << 20)
int gp_source_view_record(gp_source_kernel *k, size_t n);
/* The text a view shows for a line: the recorded one; for a report from before lines kept
 * their text, the file's line as it is now; "" for none. */
void gp_source_line_shown(const gp_source_kernel *k, const gp_source_line *l, char *buf,
                          size_t len);
/* What a view says of a recorded file now, one sentence in buf (false: nothing to say, the
 * file is as it was): changed since, missing here, or unread when recorded. */
bool gp_source_file_note(const gp_source_file *f, char *buf, size_t len);
/* The hash as reports write it, "fnv1a64:" and 16 hex digits, and read back (false: not such
 * a word). */
#define GP_SOURCE_HASH_LEN 25
void gp_source_hash_text(uint64_t hash, char buf[GP_SOURCE_HASH_LEN]);
bool gp_source_hash_read(const char *text, uint64_t *hash);

#endif
