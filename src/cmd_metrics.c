/* metrics: the catalogue (key, unit, description, PerfWorks inputs, derivation) and, for a
 * GPU or a chip named with --chip, which metrics exist there and how many passes they take. */
#include "gpuprof/commands.h"

#include "gpuprof/device.h"
#include "gpuprof/metrics.h"
#include "gpuprof/profiler.h"
#include "gpuprof/status.h"

#include <string.h>

#define MAX_METRICS 64

static void print_catalogue(FILE *out, const char *chip, const bool *available,
                            const char *const *missing, int passes_default, int passes_all)
{
    size_t n;
    const gp_metric_def *cat = gp_metric_catalogue(&n);
    if (chip)
        fprintf(out, "chip %s: default set %d passes, all %d passes per kernel\n\n", chip,
                passes_default, passes_all);
    for (size_t i = 0; i < n; i++) {
        const gp_metric_def *m = &cat[i];
        fprintf(out, "%-38s %-22s %s%s\n", m->key, m->unit,
                (m->sets & GP_SET_DEFAULT) ? "default" : "all",
                chip ? (available[i] ? ", available" : ", NOT AVAILABLE") : "");
        fprintf(out, "    %s\n    = %s\n", m->description, m->formula);
        for (size_t k = 0; k < m->n_inputs; k++)
            fprintf(out, "      %s\n", m->inputs[k]);
        if (m->ncu_metric)
            fprintf(out, "    ncu: %s\n", m->ncu_metric);
        if (chip && !available[i])
            fprintf(out, "    missing on %s: %s\n", chip, missing[i]);
    }
}

/* The chip to describe: --chip, else the GPU's (needs a device). NULL: neither. */
static int resolve_chip(const gp_request *req, char *chip, size_t len, gp_report *notes)
{
    if (req->chip) {
        snprintf(chip, len, "%s", req->chip);
        return GP_OK;
    }
    int count;
    int rc = gp_device_count(&count);
    if (rc != GP_OK) {
        /* No GPU: the catalogue alone is still an answer. */
        char note[GP_TEXT_LEN + 80];
        snprintf(note, sizeof note, "%s; showing the catalogue only (name a chip with --chip)",
                 gp_error());
        gp_clear_error();
        chip[0] = '\0';
        return gp_report_add_warning(notes, note);
    }
    if (req->device >= count)
        return gp_fail(GP_ERR_USAGE, "device %d does not exist (%d device%s found)",
                       req->device, count, count == 1 ? "" : "s");
    return gp_profiler_device_chip(req->device, chip, len);
}

int gp_cmd_metrics(const gp_request *req, FILE *out, gp_report *notes)
{
    char chip[64];
    GP_TRY(resolve_chip(req, chip, sizeof chip, notes));
    size_t n;
    gp_metric_catalogue(&n);
    gp_metric_availability avail[MAX_METRICS];
    bool available[MAX_METRICS] = {false};
    const char *missing[MAX_METRICS] = {NULL};
    int passes_default = 0, passes_all = 0;
    if (chip[0]) {
        GP_TRY(gp_profiler_chip_metrics(chip, avail, n, &passes_default, &passes_all));
        for (size_t i = 0; i < n; i++) {
            available[i] = avail[i].available;
            missing[i] = avail[i].missing;
        }
    }
    const char *chip_or_null = chip[0] ? chip : NULL;
    if (req->output == GP_OUT_JSON)
        GP_TRY(gp_render_metrics_json(out, chip_or_null, available, missing, passes_default,
                                      passes_all));
    else
        print_catalogue(out, chip_or_null, available, missing, passes_default, passes_all);
    return fflush(out) == 0 ? GP_OK : gp_fail(GP_ERR_RUNTIME, "writing the catalogue failed");
}
