/* --source's records (gpuprof/record_format.h) read into the report: a `source` record per patched
 * SASS instruction, kept until every record is read, then grouped by (pid, launch) into each
 * kernel's per-line view (gpuprof/source_view.h); a `source_note` record, why a kernel has
 * none, kept as its view's note. Private to src/records/. */
#ifndef GPUPROF_RECORDS_READ_SOURCE_H
#define GPUPROF_RECORDS_READ_SOURCE_H

#include "records/reader.h"

int gp_records_read_source(reader *rd, const cJSON *o);
int gp_records_read_source_note(reader *rd, const cJSON *o);
/* After every record and line, launches sorted and all searchable: the views built into
 * the report's exec.source_views, each patched launch noted. */
int gp_records_finish_source(reader *rd);
void gp_records_free_source(reader *rd);

#endif
