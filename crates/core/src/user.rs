//! A logged-in user, as every door holds it ([`UserCtx`]): its tree, its
//! rules, its limits and quota, and the operations on its tree, each of
//! which runs the permission check, the quota's bookkeeping and the
//! storage call once, the same for FTP and the web view.

use std::sync::Arc;

use babelftp_accounts::Limits;
use babelftp_policy::{decide, Decision, Op, Rules};
use babelftp_session::{UniqueNames, VPath, WriteMode};

use crate::error::ServiceError;
use crate::quota::Quota;
use crate::storage::Storage;
use crate::transfer::{QuotaJob, Upload};
use crate::{blocking, file_size, on_disk, Services};

/// A logged-in user: what a door needs for every operation it asks for.
#[derive(Clone)]
pub struct UserCtx {
    services: Arc<Services>,
    /// The tree the user sees (its home, its virtual folders, the rules
    /// at links' targets).
    pub tree: Arc<dyn Storage>,
    /// Its per-directory rules.
    pub rules: Arc<Rules>,
    /// The account's name, when its quota and sessions are counted.
    pub name: Option<String>,
    /// Its limits (quotas, bandwidth, sessions).
    pub limits: Limits,
}

impl UserCtx {
    pub fn new(
        services: Arc<Services>,
        tree: Arc<dyn Storage>,
        rules: Arc<Rules>,
        name: Option<String>,
        limits: Limits,
    ) -> UserCtx {
        UserCtx {
            services,
            tree,
            rules,
            name,
            limits,
        }
    }

    /// The user's quota, when it has one and there is a store.
    pub fn quota(&self) -> Option<Quota> {
        let name = self.name.as_ref()?;
        if !self.limits.has_quota() {
            return None;
        }
        let store = self.services.directory.as_ref()?.store()?.clone();
        Some(Quota {
            store,
            name: name.clone(),
            limits: self.limits,
        })
    }

    /// Whether the rules allow `op` (at every path it touches, and inside
    /// a directory it moves or removes).
    pub fn permit(&self, op: &Op<'_>) -> Result<(), ServiceError> {
        match decide(&self.rules, op) {
            Decision::Allow => Ok(()),
            Decision::Deny { missing, .. } => Err(ServiceError::Denied { perm: missing }),
            Decision::DenyInside { missing, at } => {
                let mut inside = VPath::root();
                for c in at {
                    inside = inside.join(c);
                }
                Err(ServiceError::DeniedInside {
                    perm: missing,
                    at: inside,
                })
            }
        }
    }

    /// MKD, the web's new folder: a folder takes one of the files a quota
    /// allows.
    pub async fn mkdir(&self, p: &VPath) -> Result<(), ServiceError> {
        self.permit(&Op::Mkdir(p.components()))?;
        let quota = self.quota();
        if let Some(q) = &quota {
            q.reserve_dir().await?;
        }
        let (st, p) = (self.tree.clone(), p.clone());
        let r = on_disk(&*self.tree, move || st.mkdir(&p).map_err(|e| e.kind())).await;
        if let (Some(q), Err(_)) = (&quota, &r) {
            q.dir_gone().await;
        }
        Ok(r?)
    }

    /// RMD, the web's delete of a folder.
    pub async fn rmdir(&self, p: &VPath) -> Result<(), ServiceError> {
        self.permit(&Op::Rmdir(p.components()))?;
        let (st, p) = (self.tree.clone(), p.clone());
        blocking(move || st.rmdir(&p).map_err(|e| e.kind())).await?;
        if let Some(q) = self.quota() {
            q.dir_gone().await;
        }
        Ok(())
    }

    /// DELE, the web's delete of a file: what really left the name is
    /// what the usage loses.
    pub async fn remove(&self, p: &VPath) -> Result<(), ServiceError> {
        self.permit(&Op::Delete(p.components()))?;
        let (st, p) = (self.tree.clone(), p.clone());
        let Some(q) = self.quota() else {
            return Ok(blocking(move || st.remove_file(&p).map_err(|e| e.kind())).await?);
        };
        let size = blocking(move || st.remove_file_counted(&p).map_err(|e| e.kind())).await?;
        if let Some(size) = size {
            q.removed(size).await;
        }
        Ok(())
    }

    /// RNFR/RNTO, the web's rename: over an existing file only when
    /// `replace` (which needs the right to overwrite), and a file it
    /// replaces leaves the usage.
    pub async fn rename(&self, from: &VPath, to: &VPath, replace: bool) -> Result<(), ServiceError> {
        self.permit(&Op::Rename {
            from: from.components(),
            to: to.components(),
            to_exists: replace,
        })?;
        let quota = self.quota();
        let counted = quota.is_some();
        let (st, from, to) = (self.tree.clone(), from.clone(), to.clone());
        let replaced = blocking(move || {
            let replaced = if counted && replace { file_size(&*st, &to) } else { None };
            let done = if replace {
                st.rename(&from, &to)
            } else {
                st.rename_no_replace(&from, &to)
            };
            done.map(|()| replaced).map_err(|e| e.kind())
        })
        .await?;
        if let (Some(q), Some(size)) = (quota, replaced) {
            q.removed(size).await;
        }
        Ok(())
    }

    /// SITE CHMOD.
    pub async fn chmod(&self, p: &VPath, mode: u32) -> Result<(), ServiceError> {
        self.permit(&Op::Chmod(p.components()))?;
        let (st, p) = (self.tree.clone(), p.clone());
        Ok(on_disk(&*self.tree, move || st.chmod(&p, mode).map_err(|e| e.kind())).await?)
    }

    /// MFMT.
    pub async fn set_times(&self, p: &VPath, unix_secs: i64) -> Result<(), ServiceError> {
        self.permit(&Op::Chmod(p.components()))?;
        let (st, p) = (self.tree.clone(), p.clone());
        Ok(on_disk(&*self.tree, move || {
            st.set_modified(&p, unix_secs).map_err(|e| e.kind())
        })
        .await?)
    }

    /// RETR, the web's download: the right to download at `p`, then the
    /// file, at `offset`.
    pub async fn open_download(&self, p: &VPath, offset: u64) -> Result<crate::storage::ReadHandle, ServiceError> {
        self.permit(&Op::Download(p.components()))?;
        let (st, p) = (self.tree.clone(), p.clone());
        Ok(on_disk(&*self.tree, move || st.open_read(&p, offset).map_err(|e| e.kind())).await?)
    }

    /// Opens an upload to `path`: the right to write there (to overwrite,
    /// when a file is there and `mode` may replace it), the quota's meter
    /// (the file there now, and how much of it the upload replaces), then
    /// the file. STOU (`Unique`) takes the first free name of `path`,
    /// `path.1`, … ([`Upload::chosen`]).
    pub async fn begin_upload(&self, path: &VPath, mode: WriteMode) -> Result<Upload, ServiceError> {
        self.begin_upload_reusing(path, mode, None).await
    }

    /// [`UserCtx::begin_upload`], given the session's last kept upload
    /// whose replaced file is still there (`spare`): without a quota, a
    /// replacing or new upload into the same folder is written into that
    /// file rather than a new one ([`crate::storage::Storage::open_write_reusing`]);
    /// otherwise the file goes.
    pub async fn begin_upload_reusing(
        &self,
        path: &VPath,
        mode: WriteMode,
        spare: Option<crate::transfer::HeldUpload>,
    ) -> Result<Upload, ServiceError> {
        let spare = spare.map(crate::transfer::HeldUpload::into_spare);
        let quota = self.quota();
        let (st, p, rules) = (self.tree.clone(), path.clone(), self.rules.clone());
        // The file there now, when something turns on it: the quota's
        // meter, or rules that give one of uploading and overwriting here
        // but not the other. STOU makes a new file; a `New` write never
        // replaces (its own open refuses an existing name).
        let here = self.rules.at(path.components());
        let both = here.has(babelftp_policy::Perm::Upload) && here.has(babelftp_policy::Perm::Overwrite);
        let look = (quota.is_some() || !both) && !matches!(mode, WriteMode::Unique | WriteMode::New);
        // Without a quota, the look, the check and the open are one call
        // (on the worker for a local disk: [`on_disk`]).
        let open_now = quota.is_none();
        let quick = st.clone();
        let opened = on_disk(&*quick, move || {
            let old = if look { file_size(&*st, &p) } else { None };
            let store = Op::Store {
                path: p.components(),
                exists: old.is_some(),
            };
            if decide(&rules, &store) != Decision::Allow {
                return Ok(Err(old));
            }
            let file = match open_now {
                true => Some(open_upload(&*st, p.clone(), mode, spare)),
                false => None,
            };
            Ok(Ok((old, file)))
        })
        .await?;
        let old = match opened {
            Ok((_, Some(file))) => {
                let (inner, chosen) = file?;
                return Ok(Upload::new(inner, None, chosen));
            }
            Ok((old, None)) => old,
            Err(old) => {
                return Err(self
                    .permit(&Op::Store {
                        path: path.components(),
                        exists: old.is_some(),
                    })
                    .err()
                    .unwrap_or(ServiceError::Denied {
                        perm: babelftp_policy::Perm::Upload,
                    }))
            }
        };
        let meter = match &quota {
            Some(q) => {
                let credit = match (mode, old) {
                    (WriteMode::Replace | WriteMode::New, Some(o)) => o,
                    // REST+STOR cuts the file at the offset.
                    (WriteMode::At(off), Some(o)) => o - off.min(o),
                    _ => 0,
                };
                Some(q.meter(old, credit).await?)
            }
            None => None,
        };
        let (st, p) = (self.tree.clone(), path.clone());
        let quick = st.clone();
        let opened = on_disk(&*quick, move || open_upload(&*st, p, mode, None)).await;
        let (inner, chosen) = match opened {
            Ok(o) => o,
            Err(e) => {
                if let Some(m) = meter {
                    // Nothing was written: the file is as it was.
                    m.settle_unchanged().await;
                }
                return Err(e.into());
            }
        };
        // APPE, REST+STOR and STOU write in the file itself; STOR beside
        // it, and takes its name at the end.
        let in_place = matches!(mode, WriteMode::Append | WriteMode::At(_) | WriteMode::Unique);
        let job = meter.map(|meter| QuotaJob {
            meter,
            storage: self.tree.clone(),
            path: chosen.clone().unwrap_or_else(|| path.clone()),
            in_place,
        });
        Ok(Upload::new(inner, job, chosen))
    }
}

/// Opens an upload; STOU takes the first of the candidate names
/// ([`UniqueNames`]) that does not exist yet.
#[allow(clippy::type_complexity)]
fn open_upload(
    st: &dyn Storage,
    path: VPath,
    mode: WriteMode,
    spare: Option<Box<dyn crate::storage::Held>>,
) -> Result<(Box<dyn crate::storage::Upload>, Option<VPath>), std::io::ErrorKind> {
    if mode != WriteMode::Unique {
        let opened = match spare {
            Some(spare) => st.open_write_reusing(&path, mode, spare),
            None => st.open_write(&path, mode),
        };
        return opened.map(|u| (u, None)).map_err(|e| e.kind());
    }
    for candidate in UniqueNames::new(&path) {
        match st.open_write(&candidate, mode) {
            Ok(u) => return Ok((u, Some(candidate))),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e.kind()),
        }
    }
    Err(std::io::ErrorKind::AlreadyExists)
}
