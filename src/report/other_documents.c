/* What a JSON file that is no report is (report/other_documents.h). `report` and `compare`
 * are given the wrong file more often than a broken one: gpuprof's other JSON documents, or
 * an exec report that shares its file with the program's output. Saying which beats naming
 * the first key a report needs. */
#include "report/other_documents.h"

#include "gpuprof/status.h"
#include "report/json_in.h"

#include <stdio.h>

/* A top-level key only that document has, and the command that writes it. A report's keys
 * are schemas/gpuprof-report-v1.schema.json's; the others' are the catalogue's and the
 * comparison's schemas (devices: src/render/json.c, gp_json_devices). */
static const struct {
    const char *key;
    const char *command;
} documents[] = {
    {"threshold_pct", "compare"},
    {"families", "list"},
    {"devices", "device"},
    {"metrics", "metrics"},
};

int gp_report_refuse_other_document(const cJSON *root, const char *file)
{
    /* A report always has its command line: one with unknown keys is a newer gpuprof's. */
    if (gp_json_field(root, "command_line"))
        return GP_OK;
    for (size_t i = 0; i < sizeof documents / sizeof documents[0]; i++)
        if (gp_json_field(root, documents[i].key))
            return gp_fail(GP_ERR_RUNTIME, "%s is a 'gpuprof %s --json' document, not a "
                                           "report (reports are what the kernel commands and "
                                           "exec write with --json)", file,
                           documents[i].command);
    return GP_OK;
}

int gp_report_explain_parse_failure(int rc, const char *text, size_t len)
{
    const size_t line = gp_json_begins_later(text, len);
    if (!line)
        return rc;
    char why[GP_MESSAGE_LEN];
    snprintf(why, sizeof why, "%s", gp_error());
    return gp_fail(rc, "%s: text precedes the JSON document, which begins on line %zu: was "
                       "it written by 'gpuprof exec --json' without --output?", why, line);
}
