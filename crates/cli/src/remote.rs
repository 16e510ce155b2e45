//! The client subcommands: `ls`, `get`, `put`, `mkdir`, `rm`, `mv`.
//!
//! Names travel as the server's bytes. For display each name is decided on
//! its own (RFC 2640 A.1, 3.3; `babelftp_i18n::detect`): an explicit
//! `--charset` wins over everything; else ASCII and UTF-8 show as they are,
//! a legacy name is decoded with the charset that explains it best, with
//! its directory and what earlier listings of the same server showed (the
//! evidence, remembered per server) as the prior, and a name no plausible
//! charset explains shows as `%HH` of the server's bytes. A path the user
//! types is sent as UTF-8 unless the server's likely charset is a legacy
//! one, in which case it is encoded into it when it can be; a typed name
//! that does not exist is looked up in its directory's listing by the
//! text or the `%HH` form it was shown as.

mod common;
mod ls;
mod mv;
mod progress;
mod session;

pub use common::Common;
pub use ls::{ls, ls_time, LsArgs};
pub use mv::{mv, MvArgs};
pub(crate) use progress::Shown;
pub use session::Session;

#[cfg(test)]
mod tests {
    use super::ls::ls_time;
    use super::mv::new_path;

    #[test]
    fn times_as_ls_writes_them() {
        // 2025-11-23 06:40:07 UTC.
        let t = 1_763_880_007;
        assert_eq!(ls_time(t, t + 86_400), "Nov 23 06:40");
        assert_eq!(ls_time(t, t + 200 * 86_400), "Nov 23  2025");
        assert_eq!(ls_time(t, t - 2 * 86_400), "Nov 23  2025");
        // 2020-01-05 12:34 UTC.
        assert_eq!(ls_time(1_578_227_640, t), "Jan  5  2020");
    }

    #[test]
    fn new_names_are_relative_to_the_old_ones_directory() {
        assert_eq!(new_path(b"dir/a.txt", b"b.txt", false), b"dir/b.txt");
        assert_eq!(new_path(b"/x/dir/a.txt", b"sub/b.txt", false), b"/x/dir/sub/b.txt");
        assert_eq!(new_path(b"dir/a.txt", b"/top.txt", false), b"/top.txt");
        assert_eq!(new_path(b"a.txt", b"b.txt", false), b"b.txt");
        assert_eq!(new_path(b"dir/a.txt", b"other/", false), b"dir/other/a.txt");
        assert_eq!(new_path(b"dir/a.txt", b"other/b.txt", true), b"other/b.txt");
    }
}
