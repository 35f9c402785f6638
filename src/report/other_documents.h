/* What a JSON file that is no report is (other_documents.c), for the reader's message. */
#ifndef GPUPROF_REPORT_OTHER_DOCUMENTS_H
#define GPUPROF_REPORT_OTHER_DOCUMENTS_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* GP_OK for what may be a report; for another document gpuprof writes (compare, list,
 * device, metrics --json), GP_ERR_RUNTIME with a message naming it. */
int gp_report_refuse_other_document(const cJSON *root, const char *file);

/* After gp_json_parse failed with rc on text: rc, its message extended with the likely cause
 * when lines of other text precede a JSON document (exec --json's report after the
 * program's own output). */
int gp_report_explain_parse_failure(int rc, const char *text, size_t len);

#endif
