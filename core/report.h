/* The report of a run: a table for people, CSV and JSON for programs. */
#ifndef GPULAB_REPORT_H
#define GPULAB_REPORT_H

#include "device.h"
#include "job.h"

#include <stdio.h>

struct report {
	enum format format;
	const struct device_info *dev;
	int cold;
	const struct job *jobs;
	size_t njobs;
};

void report_print(const struct report *r, FILE *out);

#endif
