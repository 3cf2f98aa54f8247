#include "config.h"

#include "docs.h"

#include <stdlib.h>

const char *docs_dir(void)
{
	const char *dir = getenv("GPULAB_DOCDIR");
	return dir && *dir ? dir : GPULAB_DOCDIR;
}
