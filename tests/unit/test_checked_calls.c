/* The calls checked where no status can be returned (gpuprof/checked_calls.h): a success is
 * not counted; a failing site is counted at each failure, listed once (the newest first), and
 * its warning names the call, the failures, the first result and what the run lacks; a
 * release's failure becomes a path's status only where it has none (GP_CUDA_RELEASE). */
#include "tap.h"

#include "gpuprof/checked_calls.h"
#include "gpuprof/status.h"

#include <stdio.h>
#include <string.h>

static int result_of(int r)
{
    return r;
}

/* One site, called with each result in turn (as a loop calls one GP_CHECKED). */
static void call_first(int r)
{
    GP_CHECKED(result_of(r), "the first site's data");
}

static void call_second(int r)
{
    GP_CHECKED(result_of(r), "the second site's data");
}

static size_t listed(const gp_call_site *until)
{
    size_t n = 0;
    for (const gp_call_site *s = gp_failed_call_sites(); s && s != until; s = s->next)
        n++;
    return n;
}

static void test_sites(void)
{
    const gp_call_site *before = gp_failed_call_sites();
    call_first(0);
    call_second(0);
    tap_ok(gp_failed_call_sites() == before, "successes are not listed");
    call_first(15);
    call_first(0);
    call_first(7);
    tap_ok(listed(before) == 1, "a site that fails twice is listed once");
    call_second(3);
    const gp_call_site *newest = gp_failed_call_sites();
    tap_ok(listed(before) == 2 && newest && strstr(newest->call, "result_of(r)") &&
               strcmp(newest->lost, "the second site's data") == 0,
           "the newest failed site first, with its call's text and what it loses");
    char text[256];
    gp_call_site_warning(newest->next, text, sizeof text);
    tap_str_eq(text, "result_of(r) failed 2 times (result 15): the first site's data",
               "a site's warning: its failures and the first result");
    gp_call_site_warning(newest, text, sizeof text);
    tap_str_eq(text, "result_of(r) failed 1 time (result 3): the second site's data",
               "one failure: \"1 time\"");
}

static int release(int status, int result)
{
    GP_CUDA_RELEASE(status, result_of(result));
    return status;
}

static void test_release(void)
{
    gp_clear_error();
    tap_ok(release(GP_OK, 0) == GP_OK && gp_error()[0] == '\0', "a release that works: no error");
    tap_ok(release(GP_OK, 700) == GP_ERR_RUNTIME && strstr(gp_error(), "result_of failed"),
           "a failed release fails a path that had no error, naming the call");
    gp_clear_error();
    gp_fail(GP_ERR_USAGE, "the first cause");
    tap_ok(release(GP_ERR_USAGE, 700) == GP_ERR_USAGE &&
               strcmp(gp_error(), "the first cause") == 0,
           "a failed release keeps an earlier error as the cause");
    gp_clear_error();
}

void test_checked_calls(void)
{
    test_sites();
    test_release();
}
