/* util/clock.h: the monotonic clock, in seconds (phase timings of loads and writers). */
#ifndef TRAX_UTIL_CLOCK_H
#define TRAX_UTIL_CLOCK_H

double trax_now_s(void);

#endif
