/* The lines of numbers (gpuprof/record_format.h): a kernel that ran (K), a copy (M), a memset (S),
 * a unified-memory counter record (U), a DRAM sample of a graph launch (P). A line that is
 * not whole (a crash cut it) is skipped; one with a number out of its field's range is
 * ignored with a warning. Private to src/records/. */
#ifndef GPUPROF_RECORDS_READ_LINES_H
#define GPUPROF_RECORDS_READ_LINES_H

#include "records/reader.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether a line starting with `tag` is a line of numbers (else a JSON record). */
bool gp_records_is_number_line(char tag);
/* Line `number` of `file`, len bytes with its newline: into the report, after every launch
 * record was read (a kernel's time may be written before its launch record). */
int gp_records_read_number_line(reader *rd, const char *line, size_t len, const char *file,
                                size_t number);

#endif
