/* device: every GPU (or --device=N) with its clocks, memory, theoretical peak bandwidth and
 * the measured device-to-device copy bandwidth. */
#include "gpuprof/commands.h"

#include "gpuprof/device.h"
#include "gpuprof/status.h"

#include <stdlib.h>

static void print_device(FILE *out, const gp_device_info *d)
{
    fprintf(out, "GPU %d: %s\n", d->index, d->name);
    fprintf(out, "  compute capability    %d.%d\n", d->cc_major, d->cc_minor);
    fprintf(out, "  multiprocessors       %d\n", d->multiprocessors);
    fprintf(out, "  memory                %.1f GiB, %d-bit bus at %.0f MHz\n",
            d->memory_bytes / 1073741824.0, d->memory_bus_bits, d->memory_clock_mhz);
    fprintf(out, "  L2 cache              %.1f MiB\n", d->l2_bytes / 1048576.0);
    fprintf(out, "  SM clock (maximum)    %.0f MHz\n", d->sm_clock_mhz);
    fprintf(out, "  peak DRAM bandwidth   %.1f GB/s (2 x memory clock x bus width)\n",
            d->peak_gbps);
    fprintf(out, "  copy bandwidth        %.1f GB/s measured (device-to-device, bytes read + "
                 "written), %.1f%% of peak\n", d->copy_gbps, 100.0 * d->copy_gbps / d->peak_gbps);
    fprintf(out, "  driver / runtime      %d.%d / %d.%d\n", d->driver_version / 1000,
            d->driver_version % 1000 / 10, d->runtime_version / 1000,
            d->runtime_version % 1000 / 10);
}

int gp_cmd_device(const gp_request *req, FILE *out)
{
    int count;
    GP_TRY(gp_device_count(&count));
    int first = req->device >= 0 ? req->device : 0;
    int last = req->device >= 0 ? req->device : count - 1;
    if (first >= count)
        return gp_fail(GP_ERR_USAGE, "device %d does not exist (%d device%s found)", first,
                       count, count == 1 ? "" : "s");
    gp_device_info *devs = calloc((size_t)(last - first + 1), sizeof *devs);
    if (!devs)
        return gp_fail(GP_ERR_RUNTIME, "out of host memory");
    int rc = GP_OK;
    for (int d = first; rc == GP_OK && d <= last; d++) {
        rc = gp_device_open(d, &devs[d - first]);
        if (rc == GP_OK)
            rc = gp_device_measure_copy(&devs[d - first]);
    }
    if (rc == GP_OK && req->output == GP_OUT_JSON)
        rc = gp_render_devices_json(out, devs, (size_t)(last - first + 1));
    for (int d = first; rc == GP_OK && req->output != GP_OUT_JSON && d <= last; d++)
        print_device(out, &devs[d - first]);
    free(devs);
    if (rc == GP_OK && fflush(out) != 0)
        rc = gp_fail(GP_ERR_RUNTIME, "writing the device list failed");
    return rc;
}
