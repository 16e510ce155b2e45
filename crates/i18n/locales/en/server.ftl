# babelftp server reply texts, English (the source catalog).
# Reply codes, FEAT names and pathnames are never part of these texts.
# A text may be preceded on the wire by a quoted pathname (257 replies);
# "path-is-current" and "path-created" are written to follow it.

greeting = babelftp ready.
goodbye = Goodbye.
command-ok = Command okay.
need-password = User name okay, need password.
logged-in = User logged in, proceed.
logged-in-anonymous = Anonymous access granted, read-only.
login-failed = Login incorrect.
home-unavailable = Login refused: the home directory of this account is not available; ask the administrator.
not-logged-in = Please log in with USER and PASS first.
already-logged-in = Already logged in.
account-not-needed = No account needed at this site.
bad-sequence = Bad sequence of commands.
cwd-ok = Directory changed.
path-is-current = is the current directory.
path-created = created.
directory-removed = Directory removed.
file-deleted = File deleted.
rename-pending = File exists, ready for destination name.
renamed = Rename successful.
restart-pending = Restarting at { $offset }. Send STOR or RETR to start the transfer.
type-set = Type set to { $type }.
stru-ok = Structure set to F.
mode-ok = Mode set to S.
superfluous = Command superfluous here.
system-type = UNIX Type: L8
features = Features:
end = End
help-intro = The following commands are recognized:
help-end = Help OK.
status-intro = Status:
status-end = End of status.
passive = Entering Passive Mode
extended-passive = Entering Extended Passive Mode
port-ok = Active data connection address accepted.
port-refused = Refused: the data address must be your own, on a port of 1024 or above.
opening-data = Opening data connection.
transfer-complete = Transfer complete.
transfer-aborted = Connection closed; transfer aborted.
abort-ok = Abort successful.
no-transfer = No transfer to abort.
cant-open-data = Cannot open data connection.
passive-limit = Too many passive ports held from your address; try again when a transfer ends.
data-timeout = Data connection timed out.
pasv-needs-ipv4 = PASV works over IPv4 only; use EPSV.
epsv-all-only = After EPSV ALL only EPSV may set up data connections.
epsv-all-ok = EPSV ALL accepted.
no-such-file = No such file or directory.
not-a-file = Not a plain file.
not-a-directory = Not a directory.
permission-denied = Permission denied.
file-exists = File exists.
directory-not-empty = Directory not empty.
no-space = Insufficient storage space.
local-error = Local error in processing.
unknown-command = Command not implemented.
syntax-error = Syntax error, command unrecognized.
argument-error = Syntax error in parameters or arguments.
parameter-not-implemented = Command not implemented for that parameter.
protocol-not-supported = Network protocol not supported, use (1,2)
line-too-long = Command line too long.
idle-timeout = Idle timeout, closing control connection.
shutting-down = Server shutting down, closing control connection.
too-many-connections = Too many connections, try again later.
out-of-resources = Out of resources (open files or memory), closing control connection; try again later.
utf8-on = UTF-8 pathnames on.
utf8-off = UTF-8 pathnames off: legacy client charset in use.
option-unknown = Option not understood.
lang-ok = Language set to { $language }.
lang-default = Language reset to the default, { $language }.
lang-unsupported = Language not supported.
lang-malformed = Malformed language tag.
host-ok = Host accepted.
host-unknown = Unknown host.
host-after-login = HOST must come before login.
unique-name = Transfer starting; unique file name:
name-untranslatable = The name cannot be written in this directory's character set.
name-not-in-charset = The name cannot be stored in the server's character set ({ $charset }).
language-name = English

# FTPS (RFC 4217)
auth-ok = AUTH TLS accepted: starting the TLS handshake.
auth-already = The control connection is already protected.
auth-unsupported = Security mechanism not supported; use AUTH TLS.
prot-ok = Data protection level set to { $level }.
prot-unsupported = Protection level not supported; use PROT C or PROT P.
ccc-refused = Clearing the command channel is not allowed.
tls-required = TLS is required: send AUTH TLS first.
prot-required = Data connections must be protected: send PROT P first.
tls-reuse-required = TLS session reuse required on the data connection (clients that never resume need tls_reuse_required = false on the server).
tls-data-failed = TLS negotiation on the data connection failed.
chmod-ok = SITE CHMOD command successful.
bad-mode = Usage: SITE CHMOD <mode> <path>, the mode in octal from 0 to 777.
site-help = SITE commands:
site-unknown = Unknown SITE command (SITE HELP lists them).
storage-unsupported = Not possible on this storage (an object store has no append, no write at an offset, no permissions).
policy-denied = Permission denied: this account lacks the “{ $perm }” right here.
policy-denied-inside = Permission denied: this folder inside lacks the “{ $perm }” right, and it would move or go with it.
banned = Too many failed logins from your address: try again later.
user-sessions-limit = This account has as many sessions open as it may: close one and try again.
quota-exceeded = Quota exceeded: this upload would pass the account's limit; the file is as it was.
quota-entries = Quota exceeded: this account may hold no more files or folders.
quota-status = Quota of this account:
quota-bytes = Space: { $used } used of { $limit }
quota-files = Files: { $used } of { $limit }
quota-no-limit = no limit
quota-none = This account has no quota.
ended-by-admin = An administrator ended this session.
web-bad-path = This address is not a path of this server.
web-bad-method = This method is not supported here.
web-csrf = The form has expired or came from another site: reload the page and try again.
web-bad-action = Unknown action.
web-bad-form = The form could not be read.
web-login-failed = Login failed: wrong user name or password.
web-unavailable = The server cannot answer right now; try again later.
web-not-found = No such file or folder.
web-denied = You do not have permission to do that here.
web-denied-inside = You may not do that: the folder “{ $path }” inside it does not allow “{ $perm }”.
web-exists = A file or folder of that name exists already.
web-not-empty = The folder is not empty.
web-bad-name = That name cannot be used here.
web-quota = Quota exceeded: this upload would pass the account's limit; nothing was kept.
web-full = The storage is full; nothing was kept.
web-busy = This account has as many sessions open as it may: close one and try again.
web-unsupported = The storage does not support this.
web-signed-in = Signed in as { $user }
web-logout = Log out
web-login = Log in
web-language = Language
web-language-apply = Apply
web-upload-label = Upload files:
web-upload = Upload
web-mkdir-label = New folder:
web-mkdir = Create
web-paged = This folder is large: { $count } entries per page, in storage order (page { $page }); sorting applies within the page.
web-copy-ftp = Copy FTP link
web-copied = Copied
web-col-name = Name
web-col-size = Size
web-col-time = Modified
web-details = details
web-empty = This folder is empty.
web-page-prev = Previous page
web-page-next = Next page
web-link-web = Web link
web-link-ftp = FTP link
web-download = Download
web-rename-label = New name:
web-rename = Rename
web-delete = Delete
web-user = User name
web-password = Password
web-stalled = The upload stopped arriving; nothing was stored.

# issue 45: server
reserved-name = This name is kept for the server's temporary upload files (.babelftp-*.part); choose another.
web-reserved-name = That name is kept for the server's temporary upload files (.babelftp-*.part); choose another.


# issue 48 (operate)
server-full = The server has as many sessions open as it allows ({ $max }): try again later.
address-full = Your address has as many sessions open as this server allows from one address ({ $max }): close one or try again later.
# issue 48 (access)
web-drop-box = You may put files here, but not see what this folder holds.
lang-account = Language reset to your account's language, { $language }.
lang-default-until-login = Language reset to the default, { $language }; an account with a language of its own gets it at login.
# issue 48 (ftps)
tls-reuse-required-account = TLS session reuse required on the data connection (clients that never resume need tls_reuse_required = false on the server, or babelftp user set NAME --tls-reuse optional for their account).
# issue 49 (find)
web-find-label = Find in this folder:
web-find = Find
web-found = “{ $text }” in { $path }: { $count } found
web-found-none = No name here or below contains “{ $text }”.
web-found-cut = The search stopped early (at most { $results } results and { $entries } entries looked at): narrow it down, or search a folder further down.
web-found-back = Back to the folder
web-find-too-long = The search text is too long: at most { $max } bytes.
# issue 49 (page)
web-login-title = Log in to { $product }
# issue 49 (zip)
web-zip-download = Download selected as zip
web-zip-select = Select
web-zip-none = Tick at least one entry to download as a zip.
web-preview = Preview
web-preview-charset = Character set: { $charset }
web-preview-cut = Only the first { $size } are shown.

# issue 49 (upload)
web-skip = Skip to the content
web-col-actions = Actions
web-size-exact = { $bytes } bytes
web-row-menu = Actions for { $name }
web-uploads = Uploads
web-upload-waiting = Waiting
web-upload-sending = Sending
web-upload-done = Done
web-upload-cancel = Cancel
web-upload-cancelled = Cancelled
web-upload-failed = Failed: the connection was lost.
# issue 49 (share)
web-share-gone = This share link no longer works: it expired, was used up or was removed.
web-share-network = This share link cannot be used from your network.
web-share-unavailable = Share links need an account of the accounts store.
web-share-title = Share link
web-share-expires = Expires after
web-share-never = never
web-share-hour = 1 hour
web-share-day = 1 day
web-share-week = 7 days
web-share-month = 30 days
web-share-password = Password (optional)
web-share-max = Download limit (optional)
web-share-upload = An upload link: people put files into this folder
web-share-create = Create link
web-share-created = Share link { $id } created. Copy it now: it is shown only once.
web-share-locked = This share link needs a password
web-share-wrong = Wrong password.
web-share-open = Open
