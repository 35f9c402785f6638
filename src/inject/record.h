/* Writing the records of include/gpuprof/record_format.h: one JSON object per line, built in a buffer
 * and written with one write() so lines from several threads never interleave; and the
 * warning record, which every part of the library writes. No cJSON: the library lives in
 * someone else's process and keeps its dependencies few. */
#ifndef GPUPROF_INJECT_RECORD_H
#define GPUPROF_INJECT_RECORD_H

#include "inject/inject.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *buf;
    size_t len, cap;
    int failed;               /* out of memory: the record is dropped */
    int fields;               /* fields written so far at the current level */
} gp_record;

/* Open the process's record file in `dir` (<dir>/<pid>.jsonl); 0 on success. */
int gp_record_open(const char *dir, int pid);

/* A record of this process: its type, then its pid, as every record of record_format.h begins. */
void gp_record_begin(gp_record *r, const char *type);
/* Several records written at once: gp_record_add starts each (type and pid, on a zeroed
 * gp_record the first time), gp_record_end_object ends each, gp_record_flush writes them
 * all. */
void gp_record_add(gp_record *r, const char *type);
void gp_record_end_object(gp_record *r);
void gp_record_flush(gp_record *r);
void gp_record_string(gp_record *r, const char *key, const char *value);
void gp_record_int(gp_record *r, const char *key, long long value);
void gp_record_uint(gp_record *r, const char *key, unsigned long long value);
void gp_record_dim(gp_record *r, const char *key, unsigned x, unsigned y, unsigned z);
/* A cubin's CRC (a code, inject/codes.h) as a string of its decimal digits, since a JSON
 * number is exact only below 2^53; nothing when it is 0 (not known). */
void gp_record_code(gp_record *r, const char *key, uint64_t code);
/* A JSON array of numbers (NaN and infinities written as null) or of strings. */
void gp_record_numbers(gp_record *r, const char *key, const double *values, size_t n);
void gp_record_strings(gp_record *r, const char *key, const char *const *values, size_t n);
/* Raw JSON for a value the caller built (an array of objects). */
void gp_record_raw(gp_record *r, const char *key, const char *json);
/* Close the object, write the line, free the buffer. */
void gp_record_end(gp_record *r);

/* A line of numbers: the tag, then each number after a space ("K 12 5 ..."). */
void gp_record_numbers_line(gp_record *r, char tag, const uint64_t *values, size_t n);

/* A warning record of this process: what could not be done, and what to do about it (hint
 * NULL or "": none). */
void gp_record_warning(const char *text, const char *hint);

/* `s` as a JSON string (quotes included) appended to r's buffer. */
void gp_record_append_string(gp_record *r, const char *s);

#endif
