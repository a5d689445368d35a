/* util/clock.c: the monotonic clock, in seconds. */
#include <time.h>

#include "util/clock.h"

double trax_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}
