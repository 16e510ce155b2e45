//! Data connections and the commands that use them: PASV/EPSV/PORT/EPRT, RETR, STOR/APPE/STOU, LIST/NLST/MLSD, and MLST.

use super::*;

impl Session {
    pub(super) async fn pasv(&mut self, extended: bool) -> Reply {
        if !extended && self.epsv_all {
            return self.r(ReplyCode::BAD_SEQUENCE, Msg::EpsvAllOnly);
        }
        let ip = self.local.ip();
        let announce = self.cfg.passive_address.unwrap_or(ip);
        let announce_v4 = match announce.to_canonical() {
            IpAddr::V4(v4) => Some(v4),
            IpAddr::V6(_) => None,
        };
        if !extended && announce_v4.is_none() {
            return self.r(ReplyCode::PROTOCOL_NOT_SUPPORTED, Msg::PassiveNeedsIpv4);
        }
        let listener = match data::bind_passive(ip, self.cfg.passive_ports.as_ref()).await {
            Ok(l) => l,
            Err(_) => return self.r(ReplyCode::CANT_OPEN_DATA, Msg::CantOpenData),
        };
        let port = match listener.local_addr() {
            Ok(a) => a.port(),
            Err(_) => return self.r(ReplyCode::CANT_OPEN_DATA, Msg::CantOpenData),
        };
        self.data = DataSetup::Passive(listener);
        if extended {
            Reply::new(
                ReplyCode::EXTENDED_PASSIVE,
                format!("{} (|||{port}|)", self.t(Msg::ExtendedPassive)),
            )
        } else {
            let o = announce_v4.map(|a| a.octets()).unwrap_or_default();
            Reply::new(
                ReplyCode::PASSIVE,
                format!(
                    "{} ({},{},{},{},{},{})",
                    self.t(Msg::Passive),
                    o[0],
                    o[1],
                    o[2],
                    o[3],
                    port >> 8,
                    port & 0xff
                ),
            )
        }
    }

    pub(super) fn active(&mut self, addr: SocketAddr) -> Reply {
        if self.epsv_all {
            return self.r(ReplyCode::BAD_SEQUENCE, Msg::EpsvAllOnly);
        }
        // No FTP bounce: only back to the client itself, never to a
        // privileged port (RFC 2577 3).
        if !data::same_ip(addr.ip(), self.peer.ip()) || addr.port() < 1024 {
            return self.r(ReplyCode::PARAMETER_NOT_IMPLEMENTED, Msg::PortRefused);
        }
        self.data = DataSetup::Active(addr);
        self.r(ReplyCode::OK, Msg::PortOk)
    }

    /// Sends 150 (unless the caller did, as STOU does with the file name),
    /// then runs `job` on the data connection in a task.
    pub(super) async fn start_transfer<F, Fut>(&mut self, job: F, announce: bool) -> io::Result<()>
    where
        F: FnOnce(TcpStream) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = TransferResult> + Send + 'static,
    {
        let setup = std::mem::take(&mut self.data);
        if matches!(setup, DataSetup::None) {
            return self.send(&self.r(ReplyCode::CANT_OPEN_DATA, Msg::CantOpenData)).await;
        }
        if announce {
            self.send(&self.r(ReplyCode::OPENING_DATA, Msg::OpeningData)).await?;
        }
        let (peer, local, timeout) = (self.peer.ip(), self.local.ip(), self.cfg.data_timeout);
        self.transfer = Some(tokio::spawn(async move {
            let stream = match data::open(setup, peer, local, timeout).await {
                Ok(s) => s,
                Err(DataError::Timeout) => return Err((ReplyCode::CANT_OPEN_DATA, Msg::DataTimeout)),
                Err(DataError::NotSetUp) => return Err((ReplyCode::CANT_OPEN_DATA, Msg::CantOpenData)),
                Err(DataError::Io(e)) => {
                    tracing::debug!(error = %e, "data connection failed");
                    return Err((ReplyCode::CANT_OPEN_DATA, Msg::CantOpenData));
                }
            };
            job(stream).await
        }));
        Ok(())
    }

    pub(super) async fn retr(&mut self, p: WirePath) -> io::Result<()> {
        let t = self.path(&p);
        let st = self.storage.clone();
        let offset = self.rest.take().unwrap_or(0);
        let t2 = t.clone();
        let handle = blocking(move || st.open_read(&t2, offset)).await?;
        let ascii = self.ttype == TransferType::Ascii;
        self.note_transfer(&t, false);
        self.start_transfer(
            move |mut stream| async move {
                let r = match handle {
                    // Binary, no TLS, a local file: the kernel copies.
                    ReadHandle::File(file) if !ascii => data::sendfile(&file, offset, &stream).await,
                    ReadHandle::File(file) => data::pump(tokio::fs::File::from_std(file), &mut stream, true).await,
                    ReadHandle::Reader(reader) => data::send_reader(reader, &mut stream, ascii).await,
                };
                finish(r, stream).await
            },
            true,
        )
        .await
    }

    pub(super) fn note_transfer(&mut self, path: &VPath, incoming: bool) {
        self.transfer_info = Some(TransferInfo {
            path: path.to_bytes(),
            incoming,
            ascii: self.ttype == TransferType::Ascii,
            started: std::time::Instant::now(),
        });
    }

    pub(super) async fn stor(&mut self, p: Option<WirePath>, mode: WriteMode) -> io::Result<()> {
        if !self.may_write() {
            return self.send(&self.denied()).await;
        }
        if matches!(self.data, DataSetup::None) {
            return self.send(&self.r(ReplyCode::CANT_OPEN_DATA, Msg::CantOpenData)).await;
        }
        let rest = self.rest.take();
        let (target, mode) = match (p, mode) {
            (Some(p), WriteMode::Replace) => (self.path(&p), rest.map_or(WriteMode::Replace, WriteMode::At)),
            (Some(p), m) => (self.path(&p), m),
            (None, m) => (self.cwd.join(b"babelftp.upload"), m),
        };
        let st = self.storage.clone();
        let stou = mode == WriteMode::CreateNew;
        let (upload, target) = blocking(move || {
            if !stou {
                return Ok((st.open_write(&target, mode)?, target));
            }
            // STOU: first free name "<name>", "<name>.1", "<name>.2", …
            let base = target.file_name().unwrap_or(b"file").to_vec();
            for n in 0u32..10_000 {
                let mut name = base.clone();
                if n > 0 {
                    name.extend_from_slice(format!(".{n}").as_bytes());
                }
                let candidate = target.parent().join(&name);
                match st.open_write(&candidate, mode) {
                    Ok(u) => return Ok((u, candidate)),
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                    Err(e) => return Err(e),
                }
            }
            Err(io::Error::new(io::ErrorKind::AlreadyExists, "no unique name"))
        })
        .await?;
        if stou {
            // RFC 1123 4.1.2.9: the 150 reply names the file.
            let name = self.wire_out(target.file_name().unwrap_or_default());
            let mut text = self.t(Msg::UniqueName).into_bytes();
            text.push(b' ');
            text.extend_from_slice(&name);
            self.send(&Reply::new(ReplyCode::OPENING_DATA, text)).await?;
        }
        let ascii = self.ttype == TransferType::Ascii;
        self.note_transfer(&target, true);
        let announce = !stou;
        let job = move |mut stream: TcpStream| async move {
            match data::receive(&mut stream, upload, ascii).await {
                Ok((n, upload)) => match tokio::task::spawn_blocking(move || upload.commit()).await {
                    Ok(Ok(())) => Ok(n),
                    Ok(Err(e)) => Err(io_status(&e)),
                    Err(_) => Err((ReplyCode::LOCAL_ERROR, Msg::LocalError)),
                },
                // A failed or interrupted upload is dropped uncommitted: a
                // replacing STOR leaves the old file as it was.
                Err(e) if is_storage_error(&e) => Err(io_status(&e)),
                Err(_) => Err((ReplyCode::TRANSFER_ABORTED, Msg::TransferAborted)),
            }
        };
        self.start_transfer(job, announce).await
    }

    pub(super) async fn entries(&self, target: &VPath) -> io::Result<Vec<Entry>> {
        let st = self.storage.clone();
        let t = target.clone();
        let write = self.may_write();
        blocking(move || {
            let me = st.stat(&t)?;
            let mut entries = if me.kind == EntryKind::Dir {
                st.list(&t)?
            } else {
                vec![me]
            };
            for e in &mut entries {
                e.perm = perm_fact(e.kind, write);
            }
            Ok(entries)
        })
        .await
        .map(|mut entries| {
            if self.legacy_active {
                for e in &mut entries {
                    e.name = self.wire_out(&e.name);
                }
            }
            entries
        })
    }

    pub(super) async fn list(&mut self, p: Option<WirePath>, kind: ListKind) -> io::Result<()> {
        let arg = p.map(|p| p.into_bytes()).unwrap_or_default();
        // `LIST -la dir`: clients pass ls options; skip them (not for MLSD,
        // whose argument is always a pathname).
        let arg = if kind == ListKind::Mlsd {
            arg.as_slice()
        } else {
            strip_ls_options(&arg)
        };
        let target = self.cwd.join(&self.wire_in(arg));
        if kind == ListKind::Mlsd {
            let st = self.storage.clone();
            let t = target.clone();
            let md = blocking(move || st.stat(&t)).await?;
            if md.kind != EntryKind::Dir {
                return self
                    .send(&self.r(ReplyCode::FILE_UNAVAILABLE, Msg::NotADirectory))
                    .await;
            }
        }
        let entries = self.entries(&target).await?;
        let facts = self.mlst_facts.clone();
        let now = now();
        let mut out = Vec::with_capacity(entries.len() * 64);
        for e in &entries {
            match kind {
                ListKind::List => listing::list_line(e, now, &mut out),
                ListKind::Nlst => {
                    out.extend_from_slice(&e.name);
                    out.extend_from_slice(b"\r\n");
                }
                ListKind::Mlsd => listing::mlsd_line(e, &facts, &mut out),
            }
        }
        self.start_transfer(
            move |mut stream| async move {
                let r = stream.write_all(&out).await.map(|()| out.len() as u64);
                finish(r, stream).await
            },
            true,
        )
        .await
    }

    pub(super) async fn mlst(&mut self, p: Option<WirePath>) -> io::Result<Reply> {
        let target = match &p {
            Some(p) => self.path(p),
            None => self.cwd.clone(),
        };
        let st = self.storage.clone();
        let t = target.clone();
        let write = self.may_write();
        let mut e = blocking(move || st.stat(&t)).await?;
        e.perm = perm_fact(e.kind, write);
        let mut line = b" ".to_vec();
        line.extend(listing::mlsx_facts(&e, &self.mlst_facts, None));
        line.push(b' ');
        line.extend(self.wire_out(&target.to_bytes()));
        let shown = p
            .map(|p| p.into_bytes())
            .unwrap_or_else(|| self.wire_out(&target.to_bytes()));
        let mut first = b"Listing ".to_vec();
        first.extend(shown);
        Ok(Reply::multi(
            ReplyCode::FILE_ACTION_OK,
            vec![first, line, self.t(Msg::End).into_bytes()],
        ))
    }
}
