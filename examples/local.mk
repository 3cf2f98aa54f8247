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
	$(MAKE) $(AM_MAKEFLAGS) installcheck-skeleton

# `gpulab new`'s skeleton, built against the installed SDK by its own
# Makefile (which finds gpulab.pc where `gpulab new` says it is: no
# PKG_CONFIG_PATH, unless DESTDIR moved it) and installed by it for a user of its own (HOME in the build
# tree, no system configuration): `gpulab list` finds it in that user's
# directories alone, and `gpulab check` passes it and every installed
# plugin, without a GPU.
skeleton_env = HOME=$(abs_builddir)/skeleton-build/home XDG_CONFIG_HOME= XDG_DATA_HOME= GPULAB_CONFIG= \
	GPULAB_PLUGIN_PATH="$(DESTDIR)$(pkglibdir)" GPULAB_SKELETON="$(DESTDIR)$(pkgdatadir)/skeleton" GPULAB_SYSCONFDIR=$(abs_builddir)/skeleton-build/nothing \
	$(if $(DESTDIR),PKG_CONFIG_PATH="$(DESTDIR)$(pkgconfigdir)$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH}")
installcheck-skeleton:
	rm -rf skeleton-build && $(MKDIR_P) skeleton-build/home skeleton-build/nothing
	cd skeleton-build && $(skeleton_env) "$(DESTDIR)$(bindir)/gpulab" new hist
	$(skeleton_env) $(MAKE) -C skeleton-build/hist NVCC="$(NVCC)"
	$(skeleton_env) $(MAKE) -C skeleton-build/hist install DESTDIR=
	$(skeleton_env) "$(DESTDIR)$(bindir)/gpulab" list > skeleton-build/list.txt
	grep -q '^  hist.scale ' skeleton-build/list.txt
	grep -q 'file $(abs_builddir)/skeleton-build/home/.local/share/gpulab/plugins/hist.so' skeleton-build/list.txt
	$(skeleton_env) $(MAKE) -C skeleton-build/hist check
	$(skeleton_env) "$(DESTDIR)$(bindir)/gpulab" check "$(DESTDIR)$(pkglibdir)"/*.so
	@echo "gpulab new's skeleton built, installed for a user, listed and checked; every plugin checked"
.PHONY: installcheck-skeleton

clean-local:
	rm -rf example-build skeleton-build
