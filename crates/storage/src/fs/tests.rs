use super::*;
use crate::{Committed, Replaced};
use babelftp_proto::listing::EntryKind;

#[test]
fn symlinks_out_of_root_are_refused() {
    let tmp = std::env::temp_dir().join(format!("babelftp-st-{}", std::process::id()));
    let root = tmp.join("root");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(tmp.join("secret"), b"x").unwrap();
    std::os::unix::fs::symlink(tmp.join("secret"), root.join("abs")).unwrap();
    std::os::unix::fs::symlink("../secret", root.join("rel")).unwrap();
    let st = FsStorage::open(&root).unwrap();
    assert!(st.open_read(&VPath::root().join(b"abs"), 0).is_err());
    assert!(st.open_read(&VPath::root().join(b"rel"), 0).is_err());
    std::fs::remove_dir_all(&tmp).unwrap();
}

fn v(p: &str) -> VPath {
    VPath::root().join(p.as_bytes())
}

#[test]
fn a_commit_says_what_the_name_held_when_it_took_it() {
    let tmp = tempfile::tempdir().unwrap();
    let st = FsStorage::open(tmp.path()).unwrap();
    std::fs::write(tmp.path().join("f"), vec![1u8; 800]).unwrap();
    // Over a file: that file, and its size.
    let mut up = st.open_write(&v("f"), WriteMode::Replace).unwrap();
    up.write_all(b"new").unwrap();
    assert_eq!(
        up.commit().unwrap(),
        Committed {
            replaced: Replaced::File(800),
            size: 3
        }
    );
    assert_eq!(std::fs::read(tmp.path().join("f")).unwrap(), b"new");
    // The file renamed away while the upload ran: nothing replaced.
    let mut up = st.open_write(&v("f"), WriteMode::Replace).unwrap();
    up.write_all(b"again").unwrap();
    std::fs::rename(tmp.path().join("f"), tmp.path().join("g")).unwrap();
    assert_eq!(up.commit().unwrap().replaced, Replaced::Nothing);
    assert_eq!(std::fs::read(tmp.path().join("g")).unwrap(), b"new");
    // A bigger file put there meanwhile: that one is counted.
    let mut up = st.open_write(&v("f"), WriteMode::Replace).unwrap();
    up.write_all(b"x").unwrap();
    std::fs::write(tmp.path().join("f"), vec![2u8; 5000]).unwrap();
    assert_eq!(up.commit().unwrap().replaced, Replaced::File(5000));
    // A directory that took the name stays, and the upload fails.
    let mut up = st.open_write(&v("d"), WriteMode::Replace).unwrap();
    up.write_all(b"x").unwrap();
    std::fs::create_dir(tmp.path().join("d")).unwrap();
    assert!(up.commit().is_err());
    assert!(tmp.path().join("d").is_dir());
    // An append replaced the file's old length.
    let mut up = st.open_write(&v("g"), WriteMode::Append).unwrap();
    up.write_all(b"++").unwrap();
    assert_eq!(
        up.commit().unwrap(),
        Committed {
            replaced: Replaced::File(3),
            size: 5
        }
    );
    // Nothing temporary is left.
    let names: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
}

#[test]
fn a_counted_removal_says_what_left_the_name() {
    let tmp = tempfile::tempdir().unwrap();
    let st = FsStorage::open(tmp.path()).unwrap();
    std::fs::write(tmp.path().join("f"), vec![1u8; 123]).unwrap();
    assert_eq!(st.remove_file_counted(&v("f")).unwrap(), Some(123));
    assert!(!tmp.path().join("f").exists());
    std::fs::create_dir(tmp.path().join("d")).unwrap();
    assert!(st.remove_file_counted(&v("d")).is_err());
    assert!(tmp.path().join("d").is_dir());
    assert!(st.remove_file_counted(&v("missing")).is_err());
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
}

#[test]
fn a_link_target_is_where_the_path_really_leads() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::create_dir_all(root.join("pub")).unwrap();
    std::fs::create_dir_all(root.join("private/deep")).unwrap();
    std::os::unix::fs::symlink("../private", root.join("pub/l")).unwrap();
    std::os::unix::fs::symlink("l/deep", root.join("pub/chain")).unwrap();
    std::os::unix::fs::symlink("/etc", root.join("pub/abs")).unwrap();
    let st = FsStorage::open(root).unwrap();
    assert_eq!(st.link_target(&v("pub/l/x.txt")), Some(v("private/x.txt")));
    assert_eq!(st.link_target(&v("pub/l")), Some(v("private")));
    assert_eq!(st.link_target(&v("pub/chain/y")), Some(v("private/deep/y")));
    assert_eq!(st.link_target(&v("pub/plain.txt")), None);
    assert_eq!(st.link_target(&v("private/deep")), None);
    assert_eq!(
        st.link_target(&v("pub/abs/passwd")),
        None,
        "out of the root: refused anyway"
    );
}

/// What events are given: the octets on disk, in a KOI8-R subtree too
/// (below a home and through a mount as well).
#[test]
fn stored_paths_are_the_octets_on_disk() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::create_dir_all(root.join("koi")).unwrap();
    let koi = Charset::for_label("koi8-r").unwrap();
    let st = FsStorage::open(root)
        .unwrap()
        .with_charsets(CharsetMap::new(None, vec![("/koi".into(), koi)]));
    let p = VPath::root().join("/koi/Привет.txt".as_bytes());
    // Not there yet: where it would be made; there: where it is.
    assert_eq!(st.stored_path(&p), b"/koi/\xF0\xD2\xC9\xD7\xC5\xD4.txt");
    std::fs::write(root.join(OsStr::from_bytes(b"koi/\xF0\xD2\xC9\xD7\xC5\xD4.txt")), "x").unwrap();
    assert_eq!(st.stored_path(&p), b"/koi/\xF0\xD2\xC9\xD7\xC5\xD4.txt");
    // Elsewhere names are as sent.
    let q = VPath::root().join("/Привет.txt".as_bytes());
    assert_eq!(st.stored_path(&q), "/Привет.txt".as_bytes());
    assert_eq!(st.stored_path(&VPath::root()), b"/");
    // Below a home: the home's subtree keeps its charset.
    let home = st.subdir(&VPath::root().join(b"koi")).unwrap();
    assert_eq!(
        home.stored_path(&VPath::root().join("Привет.txt".as_bytes())),
        b"/\xF0\xD2\xC9\xD7\xC5\xD4.txt"
    );
    // Through a mount: the mount point as seen, then the octets.
    let m = crate::mount::Mounted::with(
        Arc::new(FsStorage::open(root).unwrap()),
        vec![(VPath::root().join(b"m"), home)],
    );
    assert_eq!(
        m.stored_path(&VPath::root().join("/m/Привет.txt".as_bytes())),
        b"/m/\xF0\xD2\xC9\xD7\xC5\xD4.txt"
    );
    assert_eq!(m.stored_path(&VPath::root().join(b"/m")), b"/m");
}

/// A directory large enough to be looked at by two threads
/// (PARALLEL_STAT_FROM) lists every entry once, in the directory's own
/// order, with its size, and a link shown as what it leads to.
#[test]
fn a_large_directory_lists_every_entry_once_in_its_order() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("big");
    std::fs::create_dir(&d).unwrap();
    std::fs::create_dir(tmp.path().join("target")).unwrap();
    for i in 0..3000u32 {
        std::fs::write(d.join(format!("f{i:05}")), vec![0u8; (i % 97) as usize]).unwrap();
    }
    std::os::unix::fs::symlink("../target", d.join("link")).unwrap();
    let st = FsStorage::open(tmp.path()).unwrap();
    let got: Vec<Entry> = st.read_dir(&v("big"), false).unwrap().map(|e| e.unwrap()).collect();
    let order: Vec<Vec<u8>> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_encoded_bytes())
        .collect();
    let names: Vec<Vec<u8>> = got.iter().map(|e| e.name.clone()).collect();
    assert_eq!(names, order);
    for e in &got {
        if e.name == b"link" {
            assert_eq!(e.kind, EntryKind::Dir);
        } else {
            let i: u32 = std::str::from_utf8(&e.name[1..]).unwrap().parse().unwrap();
            assert_eq!((e.kind, e.size), (EntryKind::File, u64::from(i % 97)));
        }
    }
}

/// The threads that look at a large directory's names ahead
/// (`babelftp-list`) of this process.
fn list_helpers() -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|c| c.trim() == "babelftp-list")
        .count()
}

/// A large listing left after a few entries (ABOR, a client gone) stops
/// its helper thread: none is left behind, however many were cut, and a
/// name removed after the directory was read is left out, not an error.
#[test]
fn a_large_listing_cut_short_leaves_no_thread_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("big");
    std::fs::create_dir(&d).unwrap();
    for i in 0..3000u32 {
        std::fs::write(d.join(format!("f{i:05}")), b"x").unwrap();
    }
    let st = FsStorage::open(tmp.path()).unwrap();
    for _ in 0..20 {
        let mut it = st.read_dir(&v("big"), false).unwrap();
        for _ in 0..5 {
            it.next().unwrap().unwrap();
        }
    }
    let mut it = st.read_dir(&v("big"), false).unwrap();
    let first = it.next().unwrap().unwrap();
    let gone = if first.name == b"f00007" { "f00008" } else { "f00007" };
    std::fs::remove_file(d.join(gone)).unwrap();
    let rest: Vec<Entry> = it.map(|e| e.unwrap()).collect();
    assert!(rest.len() >= 2998 && rest.len() <= 2999, "{}", rest.len());
    let t0 = std::time::Instant::now();
    while list_helpers() > 0 && t0.elapsed() < std::time::Duration::from_secs(10) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(list_helpers(), 0);
}

/// A storage whose `d/f` an upload just overwrote, committed held: the
/// held commit.
fn overwritten() -> (tempfile::TempDir, FsStorage, Box<dyn crate::Held>) {
    let tmp = tempfile::tempdir().unwrap();
    let st = FsStorage::open(tmp.path()).unwrap();
    std::fs::create_dir(tmp.path().join("d")).unwrap();
    std::fs::write(tmp.path().join("d/f"), b"old").unwrap();
    let mut up = st.open_write(&v("d/f"), WriteMode::Replace).unwrap();
    up.write_all(b"new").unwrap();
    let (_, held) = up.commit_held().unwrap();
    (tmp, st, held.unwrap())
}

/// An overwrite keeps the file it replaced under its temporary name for
/// a moment (to undo, or to be written into by the next upload): an RMD
/// of the folder from elsewhere removes it rather than failing, and
/// removes nothing else (an upload still being written keeps it).
#[test]
fn an_rmd_removes_what_uploads_keep_in_the_folder_and_nothing_else() {
    let (tmp, st, held) = overwritten();
    let d = tmp.path().join("d");
    assert_eq!(held.replaced(), Some(3));
    let temps = || std::fs::read_dir(&d).unwrap().count();
    // f and the kept file.
    assert_eq!(temps(), 2);
    assert_eq!(
        st.rmdir(&v("d")).unwrap_err().kind(),
        std::io::ErrorKind::DirectoryNotEmpty
    );
    st.remove_file(&v("d/f")).unwrap();
    // An upload being written into d: its temporary file is not one kept.
    let mut writing = st.open_write(&v("d/g"), WriteMode::Replace).unwrap();
    writing.write_all(b"x").unwrap();
    assert_eq!(
        st.rmdir(&v("d")).unwrap_err().kind(),
        std::io::ErrorKind::DirectoryNotEmpty
    );
    assert_eq!(temps(), 2, "nothing removed while an upload is written");
    drop(writing);
    // Only the kept file is left: it goes, and the folder.
    st.rmdir(&v("d")).unwrap();
    assert!(!d.exists());
    // The upload, told to keep its commit, finds nothing left to remove.
    held.keep().unwrap();
    // A file of that name elsewhere (not kept) keeps its folder.
    std::fs::create_dir(&d).unwrap();
    std::fs::write(d.join(".babelftp-1-1.part"), b"left by a crash").unwrap();
    assert_eq!(
        st.rmdir(&v("d")).unwrap_err().kind(),
        std::io::ErrorKind::DirectoryNotEmpty
    );
}

/// A spare whose folder an RMD emptied is not written into: the next
/// upload into a new folder of that name gets a file of its own.
#[test]
fn a_spare_an_rmd_removed_is_not_reused() {
    let (tmp, st, held) = overwritten();
    let d = tmp.path().join("d");
    st.remove_file(&v("d/f")).unwrap();
    st.rmdir(&v("d")).unwrap();
    std::fs::create_dir(&d).unwrap();
    let mut up = st.open_write_reusing(&v("d/f"), WriteMode::Replace, held).unwrap();
    up.write_all(b"newer").unwrap();
    up.commit().unwrap();
    assert_eq!(std::fs::read(d.join("f")).unwrap(), b"newer");
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
}
