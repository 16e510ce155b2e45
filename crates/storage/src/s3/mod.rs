//! An object store as the FTP root: S3 and S3-compatible servers through
//! Apache OpenDAL (issue 14). Several babelftp nodes can serve one bucket:
//! the bucket is the only shared state.
//!
//! What FTP asks and what the store really does:
//!
//! | FTP | here |
//! |---|---|
//! | names | keys are UTF-8; the legacy client charset layer (RFC 2640 A.2) turns a legacy client's names into UTF-8 before they get here. Octets that are not UTF-8, control characters, `%` and whitespace at either end of a name are kept in the key as `%HH` (S3's XML listings cannot carry a CR: RFC 2640 3.1's CR in a name would come back as LF), so every name comes back as it was sent; a key written by another tool with a `%` followed by two hex digits is shown decoded |
//! | directories | a key ending in `/` is a directory marker (MKD writes one); a prefix with keys under it is a directory too |
//! | RETR, REST + RETR | a streamed ranged GET |
//! | STOR | a multipart upload of 8 MiB parts, visible only when complete: a cut or killed upload leaves the old object (the parts are aborted) |
//! | STOU | the first free name, written only if absent |
//! | APPE, REST + STOR | refused (504): S3 has no append or offset write (the emulators tried silently overwrite; research/deps-and-scale.md §3) |
//! | DELE | DELETE of an existing key (S3 answers "deleted" for a missing key: checked first, 550) |
//! | RMD | refused unless nothing is under the prefix |
//! | RNFR/RNTO | copy, then delete: not atomic; a directory is copied and deleted key by key |
//! | LIST, MLSD, NLST | ListObjects page by page, `/` as delimiter |
//! | SITE CHMOD | refused (502) |
//!
//! Every method blocks on the server's runtime (`Handle::block_on`) and is
//! called, as for the local back-end, from tokio's blocking pool or inside
//! `block_in_place`.
//!
//! Modules: `store` (the [`Storage`](crate::Storage) on OpenDAL's operator),
//! `stream` (listings, downloads and uploads as they go), `keys` (names
//! into keys and back). All but [`S3Config`] are the `s3` feature's: a
//! build without it parses S3 settings, and opening them says the build
//! has no S3 support.

#[cfg(feature = "s3")]
mod keys;
#[cfg(feature = "s3")]
mod store;
#[cfg(feature = "s3")]
mod stream;

#[cfg(feature = "s3")]
pub use store::S3Storage;

/// What opening an S3 root says in a build without the `s3` feature.
#[cfg(not(feature = "s3"))]
pub(crate) fn not_built() -> crate::StorageError {
    crate::StorageError::Io(std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        "this build has no S3 support (feature s3)",
    ))
}

/// Settings of an S3 root (`[storage]` in the configuration).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct S3Config {
    /// The bucket.
    pub bucket: String,
    /// The service's URL (`https://s3.eu-west-1.amazonaws.com`, a MinIO
    /// or Ceph gateway, `http://127.0.0.1:9000`); AWS's when unset.
    pub endpoint: Option<String>,
    /// The region (`us-east-1` when unset and nothing else says).
    pub region: Option<String>,
    /// A key prefix served as `/` (`ftp/`); the whole bucket when empty.
    pub prefix: String,
    /// Credentials; unset: the usual places (AWS_ACCESS_KEY_ID and
    /// AWS_SECRET_ACCESS_KEY, ~/.aws, the instance's role).
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
}

#[cfg(all(test, feature = "s3"))]
mod tests;
