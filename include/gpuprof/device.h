/* The GPU: presence, properties, and the copy bandwidth ceiling. */
#ifndef GPUPROF_DEVICE_H
#define GPUPROF_DEVICE_H

#include "gpuprof/report.h"

#include <stdint.h>

/* Ask the driver for one work queue per context. Call before any CUDA call and before any
 * thread starts: it sets an environment variable the driver reads when it initialises (the
 * kernel commands and device only: exec must not pass it on to the program it runs). */
void gp_device_use_one_queue(void);
/* Number of CUDA devices; GP_ERR_NODEVICE with the reason when there is no driver/device. */
int gp_device_count(int *count);
/* Make `index` current, create its context and describe it (copy_gbps left unknown). */
int gp_device_open(int index, gp_device_info *info);
/* The driver's and this runtime's versions (13000 = 13.0). */
int gp_device_versions(int *driver, int *runtime);
/* Device-to-device copy bandwidth (bytes read + written per second, 10^9), median of runs. */
int gp_device_measure_copy(gp_device_info *info);
/* Make `device` current on the calling thread (creating its primary context if needed) and
 * give that context (a CUcontext), for the profiler. */
int gp_device_use(int device, void **context);
/* Free and total device memory of the current device. */
int gp_device_memory(uint64_t *free_bytes, uint64_t *total_bytes);

#endif
