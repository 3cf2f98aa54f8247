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
	$(MAKE) $(AM_MAKEFLAGS) installcheck-recipes

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

# The recipes gpulab prints or documents, run as printed: README's nvcc
# line (on the example plugin's source) and `gpulab help check`'s example,
# with the installed gpulab first on PATH and no PKG_CONFIG_PATH, so that
# under a prefix pkg-config does not search (distcheck's) they must find
# gpulab.pc through gpulab itself.  Not under DESTDIR: the paths they
# print are the installed ones, not DESTDIR's.
recipe_env = env -u PKG_CONFIG_PATH PATH="$(bindir):$$PATH" HOME=$(abs_builddir)/recipe-build XDG_CONFIG_HOME= \
	XDG_DATA_HOME= GPULAB_CONFIG= GPULAB_PLUGIN_PATH= GPULAB_PKGCONFIGDIR=
installcheck-recipes:
	@if test -n "$(DESTDIR)"; then echo "recipes not run under DESTDIR"; exit 0; fi; \
	set -e; rm -rf recipe-build; mkdir recipe-build; cp $(abs_srcdir)/examples/axpy/axpy.cu recipe-build/mine.cu; \
	recipe=`grep -e '-o mine.so mine.cu$$' $(abs_srcdir)/README.md`; test -n "$$recipe"; \
	echo "+ $$recipe"; (cd recipe-build && $(recipe_env) sh -c "$$recipe") && test -f recipe-build/mine.so; \
	example=`$(recipe_env) gpulab help check | sed -n 's/^  \(gpulab check [-a-z ]*[$$](.*\)/\1/p'`; test -n "$$example"; \
	echo "+ $$example"; (cd recipe-build && $(recipe_env) sh -c "$$example" > check.txt) || { cat recipe-build/check.txt; exit 1; }
	@echo "README's nvcc recipe and help check's example ran as printed, with no PKG_CONFIG_PATH"
.PHONY: installcheck-recipes

clean-local:
	rm -rf example-build skeleton-build recipe-build
