/* A report part read back from JSON through its table's declaration (report/part.c). */
#ifndef GPUPROF_REPORT_PART_LOAD_H
#define GPUPROF_REPORT_PART_LOAD_H

#include "gpuprof/part.h"
#include "report/json_in.h"

/* o[t->key], when there, into *rows (calloc'd, t->row_size each; free them) and *n: each
 * row's columns that have a setter and show in JSON, a word column from a string, a number
 * column from a number or null (NAN). A keyed part's rows take their key column's word from
 * their keys (which live as long as the document). Absent: no rows. */
int gp_part_load(gp_json_reader *rd, const cJSON *o, const gp_part *t, void **rows,
                  size_t *n);
/* One row from the object o (a part's row that is not in an array of them: a document's
 * own fields, a nested object): its columns that have a setter and show in JSON. */
int gp_part_load_row(gp_json_reader *rd, const cJSON *o, const gp_part *t, void *row);

#endif
