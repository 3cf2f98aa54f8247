# The mpi plugin: the launcher, gpulab as ranks under mpirun or srun.
# Built where configure found MPI (HAVE_MPI); it alone links MPI.
EXTRA_DIST += plugins/mpi/mpi.c etc/conf.d/mpi.ini
if HAVE_MPI
pkglib_LTLIBRARIES += plugins/mpi/mpi.la
plugins_mpi_mpi_la_SOURCES = plugins/mpi/mpi.c
plugins_mpi_mpi_la_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
plugins_mpi_mpi_la_LDFLAGS = $(plugin_link_flags)
plugins_mpi_mpi_la_LIBADD = $(MPI_LIBS)
dist_dropin_DATA += etc/conf.d/mpi.ini
endif
