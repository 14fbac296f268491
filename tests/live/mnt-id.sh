# Sourced by the live tests: root_mnt_id prints the 64-bit unique mount id of "/"
# (statx with STATX_MNT_ID_UNIQUE, 0x4000, since 6.8), or nothing when it cannot be had.
root_mnt_id() {
	py=$(command -v python3 2>/dev/null) || return 0
	"$py" -c '
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
buf = ctypes.create_string_buffer(256)
# statx(AT_FDCWD, "/", 0, STATX_MNT_ID_UNIQUE, buf); x86_64 nr 332, aarch64 291
import platform
nr = {"x86_64": 332, "aarch64": 291}.get(platform.machine())
if nr is None or libc.syscall(nr, -100, b"/", 0, 0x4000, buf) != 0:
    sys.exit(0)
if int.from_bytes(buf.raw[0:4], "little") & 0x4000:  # stx_mask says the unique id is there
    print(int.from_bytes(buf.raw[144:152], "little"))  # stx_mnt_id
' 2>/dev/null
}
