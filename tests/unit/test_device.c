/* The process set-up before the first CUDA call: one work queue, unless the user chose. */
#include "tap.h"

#include "gpuprof/device.h"

#include <stdlib.h>
#include <string.h>

static const char *const queues = "CUDA_DEVICE_MAX_CONNECTIONS";

void test_device(void)
{
    const char *before = getenv(queues);
    char *saved = before ? strdup(before) : NULL;

    unsetenv(queues);
    gp_device_use_one_queue();
    tap_str_eq(getenv(queues), "1", "one work queue when the user set none");

    setenv(queues, "4", 1);
    gp_device_use_one_queue();
    tap_str_eq(getenv(queues), "4", "the user's number of work queues is kept");

    if (saved)
        setenv(queues, saved, 1);
    else
        unsetenv(queues);
    free(saved);
}
