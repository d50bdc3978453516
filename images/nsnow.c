// SPDX-License-Identifier: GPL-2.0
/*
 * nsnow - print CLOCK_MONOTONIC in nanoseconds: the guest's timer for
 * phases too short for /proc/uptime's 10 ms (busybox date has no %N).
 */
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 1;
	printf("%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	return 0;
}
