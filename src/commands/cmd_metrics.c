/* metrics: the catalogue (key, unit, description, PerfWorks inputs, derivation) and, for a
 * GPU or a chip named with --chip, which metrics exist there and how many passes they take. */
#include "gpuprof/commands.h"

#include "gpuprof/collector.h"
#include "gpuprof/device.h"
#include "gpuprof/profiler.h"
#include "gpuprof/render.h"
#include "gpuprof/status.h"

#include <stdlib.h>

/* The chip to describe: --chip, else the GPU's; "" when neither is named and there is no GPU.
 * A GPU named with --device must be there: without one, exit 3 as every command that needs a
 * GPU does. */
static int resolve_chip(const gp_request *req, char *chip, size_t len, gp_report *notes)
{
    if (req->chip) {
        snprintf(chip, len, "%s", req->chip);
        return GP_OK;
    }
    int count;
    int rc = gp_device_count(&count);
    if (rc != GP_OK && req->device < 0) {
        /* No GPU asked for, none there: the catalogue alone is still an answer. */
        char note[GP_MESSAGE_LEN + 80];
        snprintf(note, sizeof note, "%s; showing the catalogue only (name a chip with --chip)",
                 gp_error());
        gp_clear_error();
        chip[0] = '\0';
        return gp_report_add_warning(notes, note);
    }
    GP_TRY(rc);
    const int device = req->device < 0 ? 0 : req->device;
    if (device >= count)
        return gp_fail(GP_ERR_USAGE, "device %d does not exist (%d device%s found)", device,
                       count, count == 1 ? "" : "s");
    return gp_profiler_device_chip(device, chip, len);
}

int gp_cmd_metrics(const gp_request *req, FILE *out, gp_report *report)
{
    char chip[64];
    GP_TRY(resolve_chip(req, chip, sizeof chip, report));
    gp_chip_metrics m = {0};
    if (!chip[0])
        return gp_render_chip_metrics(out, &m, gp_render_options_for(req));
    size_t n;
    gp_metric_catalogue(&n);
    gp_metric_availability *avail = calloc(n, sizeof *avail);
    if (!avail)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    int rc = gp_collector_chip_summary(chip, avail, n, m.group_passes, &m.passes_all);
    m.chip = chip;
    m.availability = avail;
    if (rc == GP_OK)
        rc = gp_render_chip_metrics(out, &m, gp_render_options_for(req));
    free(avail);
    return rc;
}
