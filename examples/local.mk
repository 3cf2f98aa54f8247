# The example plugin is built out of tree against the *installed* header
# and gpulab.pc, then loaded by the installed gpulab: proof that a third
# party can add an exercise.  Runs in `make installcheck` (and so in
# `make distcheck`).
EXTRA_DIST += examples/axpy/axpy.cu examples/axpy/Makefile

installcheck-local:
	rm -rf example-build && mkdir example-build
	PKG_CONFIG_PATH="$(DESTDIR)$(pkgconfigdir)$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH}" \
		$(MAKE) -C example-build -f $(abs_srcdir)/examples/axpy/Makefile \
		SRCDIR=$(abs_srcdir)/examples/axpy NVCC="$(NVCC)"
	printf '[plugin axpy]\nfile = %s\n' "$(abs_builddir)/example-build/axpy.so" > example-build/axpy.ini
	XDG_CONFIG_HOME=$(abs_builddir)/example-build GPULAB_CONFIG= \
		"$(DESTDIR)$(bindir)/gpulab" --config example-build/axpy.ini list > example-build/list.txt
	grep -q '^  axpy.axpy ' example-build/list.txt
	grep -q '^  reduce.unroll8 ' example-build/list.txt
	@echo "example plugin built against the installed gpulab and loaded"

clean-local:
	rm -rf example-build
