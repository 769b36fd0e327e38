/*
 * monotime: print CLOCK_MONOTONIC in seconds with microseconds.
 *
 * Scenarios mark the moment they change the pose with it and compare the mark
 * with the timestamps evread prints for each frame (the same clock), so
 * "silence within half a second" is measured, not guessed.
 */
#include "common.h"

int main(void)
{
	helper_name = "monotime";
	printf("%.6f\n", monotonic_seconds());
	return 0;
}
