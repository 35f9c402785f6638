/* What one cuptiPmSamplingDecodeData call leaves to do: counters/pm_sampler.c's decision,
 * apart from CUPTI so that the unit tests can hold it to cupti_pmsampling.h's stop reasons
 * without a GPU. Private to src/counters/. */
#ifndef GPUPROF_COUNTERS_PM_DECODE_H
#define GPUPROF_COUNTERS_PM_DECODE_H

#include <cupti_result.h>
#include <stdbool.h>

typedef enum {
    GP_PM_DECODED_ALL,   /* nothing more to decode: the window is complete, or lost its tail */
    GP_PM_DECODE_AGAIN,  /* decoding stopped for no stated reason but made progress: again */
    GP_PM_DECODE_FULL,   /* the counter data is full and records remain in the hardware buffer */
    GP_PM_DECODE_FAILED  /* a CUPTI error to report */
} gp_pm_decode_step;

/* After a decode that returned `result` with stop reason `reason` (a
 * CUpti_PmSampling_DecodeStopReason) and `overflow`, having completed more samples than
 * before it (`progressed`): the next step; *lost is set when samples were lost (the hardware
 * buffer overflowed: CUPTI_ERROR_OUT_OF_MEMORY or overflow; the counter data is full) and
 * left alone otherwise. */
gp_pm_decode_step gp_pm_decode_next(CUptiResult result, int reason, bool overflow,
                                    bool progressed, bool *lost);

#endif
