// The shim's file system: the private root or a read-only host, the
// private directory and the files copied into its lib/.

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// setupMounts runs in the new mount namespace: nothing propagates back,
// the program gets a root of its own (privateRoot) or, where that fails,
// every mount of the host read-only; /proc is the PID namespace's own;
// the private directory is a fresh tmpfs holding a read-only lib/. note
// says why the private root is missing, if it is.
func setupMounts(m *shimMsg, conf *Confinement) (stage, note string, err error) {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return "mount", "", fmt.Errorf("making / private: %w", err)
	}
	unix.Sethostname([]byte("sandbox"))
	stage, err = privateRoot(m, conf)
	if err == nil {
		conf.PrivateRoot, conf.ReadOnlyFS = true, true
		return "", "", nil
	}
	note = fmt.Sprintf("private root: %s: %v", stage, err)
	unix.Unmount(m.Dir, unix.MNT_DETACH) // what privateRoot mounted there
	conf.Proc = false
	// A fresh /proc shows only the sandbox's processes. The kernel refuses
	// it when the current /proc is partly hidden (as in some containers);
	// then the old one stays, read-only like everything else.
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err == nil {
		conf.Proc = true
	}
	if err := readOnlyRoot(); err != nil {
		return "mount", note, fmt.Errorf("making the file system read-only: %w", err)
	}
	conf.ReadOnlyFS = true
	allowHarmlessDevices()
	stage, err = privateDir(m, m.Dir)
	return stage, note, err
}

// privateDir mounts the private directory at dir (its path as the
// program sees it): a fresh tmpfs with the configured files in a
// read-only lib/.
func privateDir(m *shimMsg, dir string) (string, error) {
	size := m.Limits.ScratchBytes
	if size <= 0 {
		size = 64 << 20
	}
	opts := fmt.Sprintf("size=%d,nr_inodes=4096,mode=0755", size)
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return "mount", fmt.Errorf("tmpfs on %s: %w", dir, err)
	}
	lib := filepath.Join(dir, "lib")
	if err := copyFiles(lib, m.Files, m.Tree); err != nil {
		return "workdir", err
	}
	if err := unix.Mount(lib, lib, "", unix.MS_BIND, ""); err != nil {
		return "mount", fmt.Errorf("bind %s: %w", lib, err)
	}
	if err := setReadOnly(lib, false, true); err != nil {
		return "mount", fmt.Errorf("read-only %s: %w", lib, err)
	}
	return "", nil
}

// systemPaths are what every program needs to start besides its own
// files: the dynamic loader and the shared libraries (with the merged-/usr
// symbolic links that lead to them), the loader's cache, and the time
// zone data (without them local time is UTC).
var systemPaths = []string{
	"/lib", "/lib32", "/lib64", "/libx32", "/usr/lib", "/usr/lib32", "/usr/lib64",
	"/usr/libx32", "/usr/local/lib", "/etc/ld.so.cache", "/etc/localtime", "/usr/share/zoneinfo",
}

// privateRoot makes the program's root a read-only tmpfs holding only
// what it may read, each at its host path: the system paths, the
// configured read-only paths and the program, bound read-only; the
// harmless devices; a fresh /proc of the PID namespace, read-only; and the
// private directory (privateDir) at m.Dir. The host's other files, the
// suite, the home directory and the rest of /tmp are not there at all.
// The new root is mounted on m.Dir of the host (an empty directory the
// parent made), then pivoted to.
func privateRoot(m *shimMsg, conf *Confinement) (string, error) {
	root := m.Dir
	if err := unix.Mount("tmpfs", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=1m,nr_inodes=4096,mode=0755"); err != nil {
		return "mount", fmt.Errorf("tmpfs on %s: %w", root, err)
	}
	paths := append(append(append([]string(nil), systemPaths...), m.ReadOnly...), m.Path, m.Project)
	binds, links, err := resolveBinds(paths)
	if err != nil {
		return "mount", err
	}
	for _, l := range links {
		at := filepath.Join(root, l.path)
		if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
			return "mount", err
		}
		if err := os.Symlink(l.target, at); err != nil && !errors.Is(err, fs.ErrExist) {
			return "mount", err
		}
	}
	for _, b := range binds {
		if err := bindReadOnly(root, b, false); err != nil {
			return "mount", err
		}
	}
	for _, d := range harmlessDevices {
		if _, err := os.Stat(d); err == nil {
			if err := bindReadOnly(root, d, true); err != nil {
				return "mount", err
			}
		}
	}
	proc := filepath.Join(root, "proc")
	if err := os.Mkdir(proc, 0o555); err != nil {
		return "mount", err
	}
	if err := unix.Mount("proc", proc, "proc", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err == nil {
		conf.Proc = true
	} else if err := unix.Mount("/proc", proc, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return "mount", fmt.Errorf("/proc: %w", err)
	} else if err := setReadOnly(proc, true, true); err != nil {
		return "mount", fmt.Errorf("/proc: %w", err)
	}
	dir := filepath.Join(root, m.Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "workdir", err
	}
	if stage, err := privateDir(m, dir); err != nil {
		return stage, err
	}
	if err := unix.Mount("", root, "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return "mount", fmt.Errorf("read-only root: %w", err)
	}
	// pivot_root(".", ".") stacks the old root on the new one; detaching
	// it leaves the new one alone (pivot_root(2), as runc does).
	if err := os.Chdir(root); err != nil {
		return "pivot", err
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return "pivot", err
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return "pivot", fmt.Errorf("detaching the old root: %w", err)
	}
	if err := os.Chdir("/"); err != nil {
		return "pivot", err
	}
	return "", nil
}

// link is a symbolic link of the host to recreate in a private root.
type link struct{ path, target string }

// resolveBinds resolves paths on the host: the symbolic links met on the
// way (such as /lib -> usr/lib) to recreate, and the real paths to bind,
// sorted, without those that do not exist or lie inside another.
func resolveBinds(paths []string) (binds []string, links []link, err error) {
	seen := map[string]bool{}
	var real []string
	for _, p := range paths {
		if p == "" || !filepath.IsAbs(p) {
			continue
		}
		r, ls, ok := resolvePath(filepath.Clean(p))
		if !ok {
			continue
		}
		for _, l := range ls {
			if !seen["link:"+l.path] {
				seen["link:"+l.path] = true
				links = append(links, l)
			}
		}
		if !seen[r] && r != "/" {
			seen[r] = true
			real = append(real, r)
		}
	}
	sort.Strings(real)
	for _, r := range real {
		inside := false
		for _, b := range binds {
			if r == b || strings.HasPrefix(r, b+"/") {
				inside = true
				break
			}
		}
		if !inside {
			binds = append(binds, r)
		}
	}
	// A link whose own path lies inside a bound tree is there already.
	var keep []link
	for _, l := range links {
		inside := false
		for _, b := range binds {
			if strings.HasPrefix(l.path, b+"/") {
				inside = true
				break
			}
		}
		if !inside {
			keep = append(keep, l)
		}
	}
	return binds, keep, nil
}

// resolvePath follows p's symbolic links component by component: the real
// path, the links on the way, and whether it exists.
func resolvePath(p string) (string, []link, bool) {
	var links []link
	rest := strings.Split(strings.TrimPrefix(p, "/"), "/")
	cur := "/"
	for hops := 0; len(rest) > 0; {
		c := rest[0]
		rest = rest[1:]
		if c == "" || c == "." {
			continue
		}
		if c == ".." {
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if err != nil {
			return "", nil, false
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > 40 {
			return "", nil, false
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", nil, false
		}
		links = append(links, link{next, target})
		if filepath.IsAbs(target) {
			cur = "/"
		}
		rest = append(strings.Split(strings.Trim(target, "/"), "/"), rest...)
	}
	return cur, links, true
}

// bindReadOnly binds the host path p at the same path under root,
// read-only and nosuid (and nodev, unless device).
func bindReadOnly(root, p string, device bool) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	at := filepath.Join(root, p)
	if fi.IsDir() {
		err = os.MkdirAll(at, 0o755)
	} else if err = os.MkdirAll(filepath.Dir(at), 0o755); err == nil {
		var f *os.File
		if f, err = os.OpenFile(at, os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			f.Close()
		}
	}
	if err != nil {
		return err
	}
	if err := unix.Mount(p, at, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s: %w", p, err)
	}
	if err := setReadOnly(at, fi.IsDir(), !device); err != nil {
		return fmt.Errorf("read-only %s: %w", p, err)
	}
	return nil
}

// setReadOnly makes the mount at p (and the mounts below it when
// recursive) read-only and nosuid, and nodev when nodev: mount_setattr,
// else a bind remount (Linux before 5.12; the mounts below stay as they
// are then).
func setReadOnly(p string, recursive, nodev bool) error {
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID}
	if nodev {
		attr.Attr_set |= unix.MOUNT_ATTR_NODEV
	} else {
		attr.Attr_clr = unix.MOUNT_ATTR_NODEV
	}
	flags := uint(0)
	if recursive {
		flags = unix.AT_RECURSIVE
	}
	err := unix.MountSetattr(unix.AT_FDCWD, p, flags, &attr)
	if err == nil || !errors.Is(err, unix.ENOSYS) {
		return err
	}
	mflags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_RDONLY | unix.MS_NOSUID)
	if nodev {
		mflags |= unix.MS_NODEV
	}
	return unix.Mount("", p, "", mflags, "")
}

// readOnlyRoot makes every mount read-only, nosuid and nodev: a read-only
// mount still lets uid 0 write to the device files it owns (/dev/kmsg, a
// terminal), nodev does not. mount_setattr(2) with AT_RECURSIVE (Linux
// 5.12+), else a bind remount of each mount point (without nodev).
func readOnlyRoot() error {
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
	err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, &attr)
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.ENOSYS) {
		return err
	}
	return remountEachReadOnly()
}

// harmlessDevices stay usable under nodev: each is bound onto itself and
// its bind mount made read-only, nosuid, but not nodev.
var harmlessDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

func allowHarmlessDevices() {
	for _, d := range harmlessDevices {
		if err := unix.Mount(d, d, "", unix.MS_BIND, ""); err != nil {
			continue
		}
		attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID, Attr_clr: unix.MOUNT_ATTR_NODEV}
		if err := unix.MountSetattr(unix.AT_FDCWD, d, 0, &attr); err != nil {
			unix.Unmount(d, unix.MNT_DETACH)
		}
	}
}

// remountEachReadOnly is the pre-5.12 fallback: the flags a user namespace
// inherited locked (nosuid, nodev, noexec, the atime flags) must be
// repeated in the remount or the kernel refuses it.
func remountEachReadOnly() error {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 6 {
			continue
		}
		point := unescapeMountPath(f[4])
		flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_RDONLY)
		for _, o := range strings.Split(f[5], ",") {
			switch o {
			case "nosuid":
				flags |= unix.MS_NOSUID
			case "nodev":
				flags |= unix.MS_NODEV
			case "noexec":
				flags |= unix.MS_NOEXEC
			case "noatime":
				flags |= unix.MS_NOATIME
			case "nodiratime":
				flags |= unix.MS_NODIRATIME
			case "relatime":
				flags |= unix.MS_RELATIME
			}
		}
		if err := unix.Mount("", point, "", flags, ""); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("remount %s: %w", point, err)
		}
	}
	return nil
}

// unescapeMountPath undoes the octal escapes of /proc/self/mountinfo.
func unescapeMountPath(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// setupPlainDir prepares the private directory without a mount namespace:
// it is the real temporary directory the parent made, with a copy of the
// project's tree (Config.Project) in lib/; note says what the copy left
// out, if anything.
func setupPlainDir(m *shimMsg) (note string, err error) {
	lib := filepath.Join(m.Dir, "lib")
	if err := copyFiles(lib, m.Files, m.Tree); err != nil {
		return "", err
	}
	if m.Project != "" {
		if note, err = copyTree(lib, m.Project); err != nil {
			return "", err
		}
	}
	return note, filepath.WalkDir(lib, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			err = os.Chmod(p, 0o555)
		}
		return err
	})
}

func copyFiles(dir string, files []string, tree []TreeFile) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range tree {
		rel := filepath.FromSlash(f.Rel)
		if !filepath.IsLocal(rel) {
			return fmt.Errorf("sandbox: %q is not a relative path inside lib", f.Rel)
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		data, err := os.ReadFile(f.Src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o444); err != nil {
			return err
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o444); err != nil {
			return err
		}
	}
	return nil
}

// copyTree copies the project's tree at src into dst (which exists):
// regular files and directories, without the directories skipTreeDir
// leaves out, files read-only, at most maxTreeFiles files and maxTreeBytes
// bytes. note says what did not fit.
func copyTree(dst, src string) (note string, err error) {
	files, total, skipped := 0, int64(0), 0
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable parts of the tree are not copied
		}
		rel, rerr := filepath.Rel(src, p)
		if rerr != nil {
			return rerr
		}
		at := filepath.Join(dst, rel)
		if d.IsDir() {
			if p != src && skipTreeDir(p, d.Name()) {
				return filepath.SkipDir
			}
			return os.MkdirAll(at, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, ierr := d.Info()
		if ierr != nil {
			return nil
		}
		if files >= maxTreeFiles || total+fi.Size() > maxTreeBytes {
			skipped++
			return nil
		}
		data, rerr := os.ReadFile(p)
		if rerr != nil {
			return nil
		}
		if _, serr := os.Lstat(at); serr == nil {
			return nil // a file the engine placed there itself
		}
		files++
		total += int64(len(data))
		return os.WriteFile(at, data, 0o444)
	})
	if skipped > 0 {
		note = fmt.Sprintf("project copy: %d files of %s left out (over %d files or %d MiB)", skipped, src, maxTreeFiles, maxTreeBytes>>20)
	}
	return note, err
}
