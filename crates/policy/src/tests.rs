use super::*;
use proptest::prelude::*;

fn path(s: &str) -> Vec<Vec<u8>> {
    s.split('/')
        .filter(|c| !c.is_empty())
        .map(|c| c.as_bytes().to_vec())
        .collect()
}

fn rules(pairs: &[(&str, &str)]) -> Rules {
    Rules::new(
        pairs
            .iter()
            .map(|(p, perms)| (p.as_bytes(), perms.parse::<Perms>().unwrap())),
    )
    .unwrap()
}

#[test]
fn every_set_of_permissions_is_written_and_read_back() {
    for bits in 0..=Perms::ALL.0 {
        let set = Perms(bits);
        let text = set.to_string();
        assert_eq!(text.parse::<Perms>(), Ok(set), "{text}");
    }
    assert_eq!("read".parse::<Perms>(), Ok(Perms::READ));
    assert_eq!(
        "list,download".parse::<Perms>().map(|p| p.to_string()),
        Ok("read".into())
    );
    assert_eq!(
        " Upload , MKDIR ".parse::<Perms>().map(|p| p.to_string()),
        Ok("upload,mkdir".into())
    );
    assert_eq!(
        "read,upload".parse::<Perms>().map(|p| p.to_string()),
        Ok("list,download,upload".into())
    );
    for bad in ["", "write", "list,", "none,list", "list;download"] {
        assert!(bad.parse::<Perms>().is_err(), "{bad:?}");
    }
}

#[test]
fn rule_paths_are_absolute_and_normal() {
    for bad in ["", "incoming", "/a/../b", "/./a", "/a//b", ".."] {
        assert!(Rules::new([(bad.as_bytes(), Perms::ALL)]).is_err(), "{bad:?}");
    }
    let r = rules(&[("/", "read"), ("/in/", "upload"), ("/in", "all")]);
    // The last of a path given twice wins; a trailing / is the same path.
    assert_eq!(r.at(&path("/in/x")), Perms::ALL);
    assert_eq!(
        r.iter().collect::<Vec<_>>(),
        [("/in".to_owned(), Perms::ALL), ("/".to_owned(), Perms::READ)]
    );
}

#[test]
fn the_longest_covering_path_wins_component_by_component() {
    let r = rules(&[
        ("/", "read"),
        ("/incoming", "list,upload"),
        ("/incoming/done", "none"),
        ("/pub/ビルド", "all"),
    ]);
    assert_eq!(r.at(&path("/")), Perms::READ);
    assert_eq!(r.at(&path("/a/b/c")), Perms::READ);
    assert_eq!(r.at(&path("/incoming")), "list,upload".parse().unwrap());
    assert_eq!(r.at(&path("/incoming/x/y")), "list,upload".parse().unwrap());
    assert_eq!(r.at(&path("/incoming/done/z")), Perms::NONE);
    // A prefix of octets is not a parent: /incomingX is not below /incoming.
    assert_eq!(r.at(&path("/incomingX")), Perms::READ);
    assert_eq!(r.at(&path("/pub/ビルド/a")), Perms::ALL);
    assert_eq!(r.at(&path("/pub/ビル")), Perms::READ);
    // No rule for / : nothing at the root.
    assert_eq!(rules(&[("/a", "all")]).at(&path("/b")), Perms::NONE);
    assert_eq!(Rules::default().at(&path("/any/where")), Perms::ALL);
}

#[test]
fn a_drop_box_takes_files_and_shows_nothing() {
    let r = rules(&[("/", "read"), ("/drop", "upload")]);
    let f = path("/drop/report.pdf");
    assert_eq!(
        decide(
            &r,
            &Op::Store {
                path: &f,
                exists: false
            }
        ),
        Decision::Allow
    );
    // Replacing someone's file is overwrite, which the drop box lacks.
    assert_eq!(
        decide(&r, &Op::Store { path: &f, exists: true }),
        Decision::Deny {
            missing: Perm::Overwrite,
            at: &f
        }
    );
    assert!(matches!(
        decide(&r, &Op::Download(&f)),
        Decision::Deny {
            missing: Perm::Download,
            ..
        }
    ));
    assert!(matches!(
        decide(&r, &Op::List(&path("/drop"))),
        Decision::Deny {
            missing: Perm::List,
            ..
        }
    ));
    // The drop box shows in `/`, where the user may list (issue 48); what
    // is inside it does not, as `/drop` itself may not be listed.
    assert!(visible(&r, &path("/drop")));
    assert!(r.below(&[]).shows(b"drop"));
    assert!(visible(&r, &path("/readme.txt")));
    // What the user may do nothing with stays out of the listing.
    let r = rules(&[("/", "read"), ("/secret", "none")]);
    assert!(!visible(&r, &path("/secret")) && !r.below(&[]).shows(b"secret"));
    // ... unless a rule inside it gives something: the way there shows.
    let r = rules(&[("/", "read"), ("/a", "none"), ("/a/b/drop", "upload")]);
    assert!(visible(&r, &path("/a")) && r.below(&[]).shows(b"a"));
    assert!(r.below(&path("/a")).shows(b"b") && !r.below(&path("/a")).shows(b"c"));
}

#[test]
fn rename_needs_the_right_at_both_ends_and_overwrite_to_replace() {
    let r = rules(&[("/", "all"), ("/ro", "read"), ("/keep", "list,download,upload,rename")]);
    let (a, b, ro, keep) = (path("/a"), path("/b"), path("/ro/x"), path("/keep/x"));
    assert_eq!(
        decide(
            &r,
            &Op::Rename {
                from: &a,
                to: &b,
                to_exists: true
            }
        ),
        Decision::Allow
    );
    assert_eq!(
        decide(
            &r,
            &Op::Rename {
                from: &ro,
                to: &b,
                to_exists: false
            }
        ),
        Decision::Deny {
            missing: Perm::Rename,
            at: &ro
        }
    );
    assert_eq!(
        decide(
            &r,
            &Op::Rename {
                from: &a,
                to: &ro,
                to_exists: false
            }
        ),
        Decision::Deny {
            missing: Perm::Rename,
            at: &ro
        }
    );
    assert_eq!(
        decide(
            &r,
            &Op::Rename {
                from: &a,
                to: &keep,
                to_exists: false
            }
        ),
        Decision::Allow
    );
    assert_eq!(
        decide(
            &r,
            &Op::Rename {
                from: &a,
                to: &keep,
                to_exists: true
            }
        ),
        Decision::Deny {
            missing: Perm::Overwrite,
            at: &keep
        }
    );
}

#[test]
fn a_directory_moves_or_goes_only_when_every_rule_inside_it_allows_that() {
    // Issue 45: RNFR /projects + RNTO /moved took /projects/locked out
    // from under its rule.
    let r = rules(&[("/", "all"), ("/projects/locked", "none")]);
    let (projects, moved, locked) = (path("/projects"), path("/moved"), path("/projects/locked"));
    assert_eq!(
        decide(
            &r,
            &Op::Rename {
                from: &projects,
                to: &moved,
                to_exists: false
            }
        ),
        Decision::DenyInside {
            missing: Perm::Rename,
            at: &locked
        }
    );
    assert_eq!(
        decide(&r, &Op::Rmdir(&projects)),
        Decision::DenyInside {
            missing: Perm::Rmdir,
            at: &locked
        }
    );
    // Into a directory with a stricter rule below it: refused too.
    let (other, into) = (path("/other"), path("/projects"));
    let r2 = rules(&[("/", "all"), ("/projects/locked", "none")]);
    assert!(matches!(
        decide(
            &r2,
            &Op::Rename {
                from: &other,
                to: &into,
                to_exists: false
            }
        ),
        Decision::DenyInside { .. }
    ));
    // A rule inside that allows it, a sibling, or a file: allowed.
    let ok = rules(&[("/", "all"), ("/projects/locked", "read,rename,rmdir")]);
    assert_eq!(
        decide(
            &ok,
            &Op::Rename {
                from: &projects,
                to: &moved,
                to_exists: false
            }
        ),
        Decision::Allow
    );
    assert_eq!(decide(&ok, &Op::Rmdir(&projects)), Decision::Allow);
    let (a, b) = (path("/projects2"), path("/elsewhere"));
    assert_eq!(
        decide(
            &r,
            &Op::Rename {
                from: &a,
                to: &b,
                to_exists: false
            }
        ),
        Decision::Allow,
        "/projects2 is not inside /projects"
    );
    let f = path("/projects/locked/secret.txt");
    assert_eq!(
        decide(&r, &Op::Delete(&f)),
        Decision::Deny {
            missing: Perm::Delete,
            at: &f
        }
    );
}

/// What a rule set says at a path, worked out the slow way: every rule
/// whose path is the path or a parent of it, the longest.
fn brute(pairs: &[(Vec<Vec<u8>>, Perms)], p: &[Vec<u8>]) -> Perms {
    let mut best: Option<&(Vec<Vec<u8>>, Perms)> = None;
    for r in pairs {
        let covers = r.0.len() <= p.len() && r.0.iter().zip(p).all(|(a, b)| a == b);
        if covers && best.is_none_or(|b| r.0.len() >= b.0.len()) {
            best = Some(r);
        }
    }
    best.map_or(Perms::NONE, |r| r.1)
}

fn comp() -> impl Strategy<Value = Vec<u8>> {
    // A small alphabet, so that paths share prefixes often; some octets
    // that are not UTF-8.
    prop::sample::select(vec![
        b"a".to_vec(),
        b"b".to_vec(),
        b"ab".to_vec(),
        "é".as_bytes().to_vec(),
        vec![0xe9],
        vec![0xff, 0x20],
    ])
}

proptest! {
    #[test]
    fn at_is_the_longest_covering_rule(
        raw in prop::collection::vec((prop::collection::vec(comp(), 0..4), 0u16..512), 0..8),
        probes in prop::collection::vec(prop::collection::vec(comp(), 0..5), 1..16),
    ) {
        // Unique rule paths (the last of a path given twice wins).
        let mut pairs: Vec<(Vec<Vec<u8>>, Perms)> = Vec::new();
        for (p, bits) in raw {
            pairs.retain(|(q, _)| *q != p);
            pairs.push((p, Perms(bits)));
        }
        let texts: Vec<(Vec<u8>, Perms)> = pairs
            .iter()
            .map(|(p, perms)| {
                let mut s = vec![b'/'];
                s.extend(p.join(&b'/'));
                (s, *perms)
            })
            .collect();
        let rules = Rules::new(texts.iter().map(|(s, p)| (s.as_slice(), *p))).unwrap();
        for probe in &probes {
            let want = brute(&pairs, probe);
            prop_assert_eq!(rules.at(probe), want);
            // Every operation is allowed exactly when every permission it
            // needs is there, and says the first one missing.
            let other = &probes[0];
            for op in [
                Op::List(probe),
                Op::Download(probe),
                Op::Store { path: probe, exists: false },
                Op::Store { path: probe, exists: true },
                Op::Delete(probe),
                Op::Mkdir(probe),
                Op::Rmdir(probe),
                Op::Chmod(probe),
                Op::Rename { from: probe, to: other, to_exists: false },
                Op::Rename { from: other, to: probe, to_exists: true },
            ] {
                let first_missing = needs(&op).into_iter().find(|(perm, at)| !brute(&pairs, at).has(*perm));
                // A rule strictly inside a directory moved or removed,
                // refusing the same permission there.
                let strictly_below = |q: &[Vec<u8>], dir: &[Vec<u8>]| q.len() > dir.len() && q[..dir.len()] == *dir;
                let inside_missing = needs_inside(&op).into_iter().find_map(|(perm, dir)| {
                    pairs
                        .iter()
                        .any(|(q, _)| strictly_below(q, dir) && !brute(&pairs, q).has(perm))
                        .then_some((perm, dir))
                });
                match (decide(&rules, &op), first_missing, inside_missing) {
                    (Decision::Allow, None, None) => {}
                    (Decision::Deny { missing, at }, Some((m, a)), _) => {
                        prop_assert_eq!(missing, m);
                        prop_assert_eq!(at, a);
                    }
                    (Decision::DenyInside { missing, at }, None, Some((m, dir))) => {
                        prop_assert_eq!(missing, m);
                        prop_assert!(strictly_below(at, dir), "{:?} is not inside {:?}", at, dir);
                        prop_assert!(pairs.iter().any(|(q, _)| q.as_slice() == at), "{:?} is no rule's path", at);
                        prop_assert!(!brute(&pairs, at).has(m));
                    }
                    (got, want, inside) => prop_assert!(false, "{:?}: {:?} vs {:?} / {:?}", op, got, want, inside),
                }
            }
            // Shown: some permission at it, or at a rule's path inside it.
            let inside = pairs.iter().any(|(q, _)| {
                q.len() > probe.len() && q[..probe.len()] == probe[..] && !brute(&pairs, q).is_empty()
            });
            prop_assert_eq!(visible(&rules, probe), !want.is_empty() || inside);
            // A listing's view of a directory's entries agrees with `at`.
            if let Some((name, dir)) = probe.split_last() {
                prop_assert_eq!(rules.below(dir).of(name), want);
                prop_assert_eq!(rules.below(dir).shows(name), visible(&rules, probe));
            }
        }
    }
}

/// Issue 49: a share link's folder becomes `/`: the rules at and below
/// it keep their places, cut to what the share gives.
#[test]
fn rules_rebased_at_a_shared_folder() {
    let r = rules(&[
        ("/", "list"),
        ("/pub", "all"),
        ("/pub/in", "upload"),
        ("/pub/no", "none"),
        ("/other", "all"),
    ]);
    let shared = r.rebased(&path("/pub"), Perms::READ);
    assert_eq!(shared.at(&path("/")), Perms::READ);
    assert_eq!(shared.at(&path("/x/y")), Perms::READ);
    assert_eq!(shared.at(&path("/in")), Perms::NONE, "upload, cut to read");
    assert_eq!(shared.at(&path("/no/z")), Perms::NONE);
    assert_eq!(
        shared.at(&path("/other")),
        Perms::READ,
        "the folder's /other, not the root's"
    );
    let up = r.rebased(&path("/pub/in"), Perms::NONE.with(Perm::Upload));
    assert!(up.at(&path("/")).has(Perm::Upload) && !up.at(&path("/")).has(Perm::List));
}
