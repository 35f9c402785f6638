/* device: every GPU (or --device=N) with its clocks, memory, theoretical peak bandwidth and
 * the measured device-to-device copy bandwidth. */
#include "gpuprof/commands.h"

#include "gpuprof/device.h"
#include "gpuprof/render.h"
#include "gpuprof/status.h"

#include <stdlib.h>

static int describe(gp_device_info *devs, int first, int last)
{
    for (int d = first; d <= last; d++) {
        GP_TRY(gp_device_open(d, &devs[d - first]));
        GP_TRY(gp_device_measure_copy(&devs[d - first]));
    }
    return GP_OK;
}

int gp_cmd_device(const gp_request *req, FILE *out, gp_report *report)
{
    (void)report;
    gp_device_use_one_queue();
    int count;
    GP_TRY(gp_device_count(&count));
    const int first = req->device >= 0 ? req->device : 0;
    const int last = req->device >= 0 ? req->device : count - 1;
    if (first >= count)
        return gp_fail(GP_ERR_USAGE, "device %d does not exist (%d device%s found)", first,
                       count, count == 1 ? "" : "s");
    const size_t n = (size_t)(last - first + 1);
    gp_device_info *devs = calloc(n, sizeof *devs);
    if (!devs)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    int rc = describe(devs, first, last);
    if (rc == GP_OK)
        rc = gp_render_devices(out, devs, n, gp_render_options_for(req));
    free(devs);
    return rc;
}
