# Antworttexte des babelftp-Servers, Deutsch.
# Antwortcodes, FEAT-Namen und Pfadnamen sind nie Teil dieser Texte.
# Bei der Übertragung kann einem Text ein Pfadname in Anführungszeichen vorangehen (257-Antworten);
# "path-is-current" und "path-created" sind so formuliert, dass sie darauf folgen.

greeting = babelftp bereit.
goodbye = Auf Wiedersehen.
command-ok = Befehl ausgeführt.
need-password = Benutzername in Ordnung, Passwort erforderlich.
logged-in = Benutzer angemeldet, bitte fortfahren.
logged-in-anonymous = Anonymer Zugriff gewährt, nur Lesezugriff.
login-failed = Anmeldung fehlgeschlagen.
home-unavailable = Anmeldung abgelehnt: Das Home-Verzeichnis dieses Kontos ist nicht verfügbar; wenden Sie sich an den Administrator.
not-logged-in = Bitte zuerst mit USER und PASS anmelden.
already-logged-in = Bereits angemeldet.
account-not-needed = Auf diesem Server wird kein Konto benötigt.
bad-sequence = Falsche Befehlsreihenfolge.
cwd-ok = Verzeichnis gewechselt.
path-is-current = ist das aktuelle Verzeichnis.
path-created = wurde erstellt.
directory-removed = Verzeichnis entfernt.
file-deleted = Datei gelöscht.
rename-pending = Datei vorhanden, bereit für den Zielnamen.
renamed = Umbenennung erfolgreich.
restart-pending = Fortsetzung bei { $offset }. Senden Sie STOR oder RETR, um die Übertragung zu starten.
type-set = Typ auf { $type } gesetzt.
stru-ok = Struktur auf F gesetzt.
mode-ok = Modus auf S gesetzt.
superfluous = Befehl an dieser Stelle überflüssig.
system-type = UNIX Type: L8
features = Funktionen:
end = Ende
help-intro = Die folgenden Befehle werden erkannt:
help-end = Ende der Hilfe.
status-intro = Statusinformationen:
status-end = Ende der Statusinformationen.
passive = Wechsel in den passiven Modus
extended-passive = Wechsel in den erweiterten passiven Modus
port-ok = Adresse für aktive Datenverbindung akzeptiert.
port-refused = Abgelehnt: Die Datenadresse muss Ihre eigene sein, mit einem Port ab 1024.
opening-data = Datenverbindung wird geöffnet.
transfer-complete = Übertragung abgeschlossen.
transfer-aborted = Verbindung geschlossen; Übertragung abgebrochen.
abort-ok = Abbruch erfolgreich.
no-transfer = Keine laufende Übertragung zum Abbrechen.
cant-open-data = Datenverbindung kann nicht geöffnet werden.
passive-limit = Zu viele passive Ports von Ihrer Adresse belegt; versuchen Sie es nach dem Ende einer Übertragung erneut.
data-timeout = Zeitüberschreitung der Datenverbindung.
pasv-needs-ipv4 = PASV funktioniert nur über IPv4; verwenden Sie EPSV.
epsv-all-only = Nach EPSV ALL darf nur EPSV Datenverbindungen aufbauen.
epsv-all-ok = EPSV ALL akzeptiert.
no-such-file = Datei oder Verzeichnis nicht gefunden.
not-a-file = Keine reguläre Datei.
not-a-directory = Kein Verzeichnis.
permission-denied = Zugriff verweigert.
file-exists = Datei existiert bereits.
directory-not-empty = Verzeichnis ist nicht leer.
no-space = Nicht genügend Speicherplatz.
local-error = Lokaler Fehler bei der Verarbeitung.
unknown-command = Befehl nicht implementiert.
syntax-error = Syntaxfehler, Befehl nicht erkannt.
argument-error = Syntaxfehler in Parametern oder Argumenten.
parameter-not-implemented = Befehl für diesen Parameter nicht implementiert.
protocol-not-supported = Netzwerkprotokoll nicht unterstützt, verwenden Sie (1,2)
line-too-long = Befehlszeile zu lang.
idle-timeout = Zeitüberschreitung wegen Inaktivität, Steuerverbindung wird geschlossen.
shutting-down = Server wird heruntergefahren, Steuerverbindung wird geschlossen.
too-many-connections = Zu viele Verbindungen, bitte später erneut versuchen.
out-of-resources = Keine Ressourcen mehr (offene Dateien oder Speicher), Steuerverbindung wird geschlossen; bitte später erneut versuchen.
utf8-on = UTF-8-Pfadnamen aktiviert.
utf8-off = UTF-8-Pfadnamen deaktiviert: Der herkömmliche Zeichensatz des Clients wird verwendet.
option-unknown = Option nicht verstanden.
lang-ok = Sprache auf { $language } gesetzt.
lang-default = Sprache auf die Standardsprache zurückgesetzt: { $language }.
lang-unsupported = Sprache nicht unterstützt.
lang-malformed = Ungültiges Sprach-Tag.
host-ok = Host akzeptiert.
host-unknown = Unbekannter Host.
host-after-login = HOST muss vor der Anmeldung gesendet werden.
unique-name = Übertragung beginnt; eindeutiger Dateiname:
name-untranslatable = Der Name kann im Zeichensatz dieses Verzeichnisses nicht geschrieben werden.
name-not-in-charset = Der Name kann im Zeichensatz des Servers ({ $charset }) nicht gespeichert werden.
language-name = Deutsch

# FTPS (RFC 4217)
auth-ok = AUTH TLS akzeptiert: TLS-Handshake wird gestartet.
auth-already = Die Steuerverbindung ist bereits geschützt.
auth-unsupported = Sicherheitsmechanismus nicht unterstützt; verwenden Sie AUTH TLS.
prot-ok = Schutzstufe für Datenverbindungen auf { $level } gesetzt.
prot-unsupported = Schutzstufe nicht unterstützt; verwenden Sie PROT C oder PROT P.
ccc-refused = Der Befehlskanal darf nicht auf Klartext zurückgesetzt werden.
tls-required = TLS erforderlich: Senden Sie zuerst AUTH TLS.
prot-required = Datenverbindungen müssen geschützt sein: Senden Sie zuerst PROT P.
tls-reuse-required = Wiederverwendung der TLS-Sitzung auf der Datenverbindung erforderlich (Clients, die nie eine Sitzung wiederaufnehmen, brauchen tls_reuse_required = false auf dem Server).
tls-data-failed = TLS-Aushandlung auf der Datenverbindung fehlgeschlagen.
chmod-ok = SITE CHMOD ausgeführt.
bad-mode = Aufruf: SITE CHMOD <Modus> <Pfad>, der Modus oktal von 0 bis 777.
site-help = SITE-Befehle:
site-unknown = Unbekannter SITE-Befehl (SITE HELP listet sie auf).
storage-unsupported = Auf diesem Speicher nicht möglich (ein Objektspeicher kennt kein Anhängen, kein Schreiben ab einer Position, keine Rechte).
policy-denied = Zugriff verweigert: Dieses Konto hat hier das Recht „{ $perm }“ nicht.
policy-denied-inside = Zugriff verweigert: Diesem Ordner darin fehlt das Recht „{ $perm }“, und er würde mit verschoben oder entfernt.
banned = Zu viele fehlgeschlagene Anmeldungen von Ihrer Adresse: versuchen Sie es später erneut.
user-sessions-limit = Dieses Konto hat so viele Sitzungen offen wie erlaubt: eine schließen und erneut versuchen.
quota-exceeded = Kontingent überschritten: dieses Hochladen würde das Limit des Kontos überschreiten; die Datei ist unverändert.
quota-entries = Kontingent überschritten: Dieses Konto darf keine weiteren Dateien oder Ordner haben.
quota-status = Kontingent dieses Kontos:
quota-bytes = Speicher: { $used } von { $limit } belegt
quota-files = Dateien: { $used } von { $limit }
quota-no-limit = unbegrenzt
quota-none = Dieses Konto hat kein Kontingent.
ended-by-admin = Ein Administrator hat diese Sitzung beendet.
web-bad-path = Diese Adresse ist kein Pfad dieses Servers.
web-bad-method = Diese Methode wird hier nicht unterstützt.
web-csrf = Das Formular ist abgelaufen oder kam von einer anderen Website: Seite neu laden und erneut versuchen.
web-bad-action = Unbekannte Aktion.
web-bad-form = Das Formular konnte nicht gelesen werden.
web-login-failed = Anmeldung fehlgeschlagen: falscher Benutzername oder falsches Passwort.
web-unavailable = Der Server kann gerade nicht antworten; später erneut versuchen.
web-not-found = Datei oder Ordner nicht gefunden.
web-denied = Dafür fehlt hier die Berechtigung.
web-denied-inside = Das ist nicht erlaubt: Der Ordner „{ $path }“ darin erlaubt „{ $perm }“ nicht.
web-exists = Eine Datei oder ein Ordner dieses Namens existiert bereits.
web-not-empty = Der Ordner ist nicht leer.
web-bad-name = Dieser Name kann hier nicht verwendet werden.
web-quota = Kontingent überschritten: dieses Hochladen würde das Limit des Kontos überschreiten; nichts wurde behalten.
web-full = Der Speicher ist voll; nichts wurde behalten.
web-busy = Dieses Konto hat so viele Sitzungen offen wie erlaubt: eine schließen und erneut versuchen.
web-unsupported = Der Speicher unterstützt das nicht.
web-signed-in = Angemeldet als { $user }
web-logout = Abmelden
web-login = Anmelden
web-language = Sprache
web-language-apply = Übernehmen
web-upload-label = Dateien hochladen:
web-upload = Hochladen
web-mkdir-label = Neuer Ordner:
web-mkdir = Anlegen
web-paged = Dieser Ordner ist groß: { $count } Einträge pro Seite, in der Reihenfolge des Speichers (Seite { $page }); sortiert wird innerhalb der Seite.
web-copy-ftp = FTP-Link kopieren
web-copied = Kopiert
web-col-name = Name
web-col-size = Größe
web-col-time = Geändert
web-details = Details
web-empty = Dieser Ordner ist leer.
web-page-prev = Vorherige Seite
web-page-next = Nächste Seite
web-link-web = Web-Link
web-link-ftp = FTP-Link
web-download = Herunterladen
web-rename-label = Neuer Name:
web-rename = Umbenennen
web-delete = Löschen
web-user = Benutzername
web-password = Passwort
web-stalled = Der Upload kam nicht mehr an; nichts wurde gespeichert.

# issue 45: server
reserved-name = Dieser Name ist den temporären Upload-Dateien des Servers vorbehalten (.babelftp-*.part); wählen Sie einen anderen.
web-reserved-name = Dieser Name ist den temporären Upload-Dateien des Servers vorbehalten (.babelftp-*.part); wählen Sie einen anderen.


# issue 48 (operate)
server-full = Der Server hat so viele Sitzungen offen, wie er erlaubt ({ $max }): bitte später erneut versuchen.
address-full = Ihre Adresse hat so viele Sitzungen offen, wie dieser Server von einer Adresse erlaubt ({ $max }): schließen Sie eine oder versuchen Sie es später erneut.
# issue 48 (access)
web-drop-box = Sie dürfen hier Dateien ablegen, aber nicht sehen, was dieser Ordner enthält.
lang-account = Sprache auf die Sprache Ihres Kontos zurückgesetzt: { $language }.
lang-default-until-login = Sprache auf die Standardsprache zurückgesetzt: { $language }; ein Konto mit eigener Sprache erhält sie bei der Anmeldung.
# issue 48 (ftps)
tls-reuse-required-account = Wiederverwendung der TLS-Sitzung auf der Datenverbindung erforderlich (Clients, die nie eine Sitzung wiederaufnehmen, brauchen tls_reuse_required = false auf dem Server, oder babelftp user set NAME --tls-reuse optional für ihr Konto).
# issue 49 (find)
web-find-label = In diesem Ordner suchen:
web-find = Suchen
web-found = „{ $text }“ in { $path }: { $count } gefunden
web-found-none = Kein Name hier oder darunter enthält „{ $text }“.
web-found-cut = Die Suche wurde vorzeitig beendet (höchstens { $results } Treffer und { $entries } geprüfte Einträge): grenzen Sie sie ein oder suchen Sie in einem tieferen Ordner.
web-found-back = Zurück zum Ordner
web-find-too-long = Der Suchtext ist zu lang: höchstens { $max } Bytes.
# issue 49 (page)
web-login-title = Bei { $product } anmelden
# issue 49 (zip)
web-zip-download = Auswahl als ZIP herunterladen
web-zip-select = Auswahl
web-zip-none = Wählen Sie mindestens einen Eintrag, der als ZIP heruntergeladen werden soll.
web-preview = Vorschau
web-preview-charset = Zeichensatz: { $charset }
web-preview-cut = Nur die ersten { $size } werden angezeigt.

# issue 49 (upload)
web-skip = Zum Inhalt springen
web-col-actions = Aktionen
web-size-exact = { $bytes } Bytes
web-row-menu = Aktionen für { $name }
web-uploads = Uploads
web-upload-waiting = Wartet
web-upload-sending = Wird gesendet
web-upload-done = Fertig
web-upload-cancel = Abbrechen
web-upload-cancelled = Abgebrochen
web-upload-failed = Fehlgeschlagen: die Verbindung ist abgebrochen.
# issue 49 (share)
web-share-gone = Dieser Freigabelink funktioniert nicht mehr: Er ist abgelaufen, aufgebraucht oder wurde entfernt.
web-share-network = Dieser Freigabelink kann aus Ihrem Netzwerk nicht verwendet werden.
web-share-unavailable = Freigabelinks brauchen ein Konto im Kontenspeicher.
web-share-title = Freigabelink
web-share-expires = Läuft ab nach
web-share-never = nie
web-share-hour = 1 Stunde
web-share-day = 1 Tag
web-share-week = 7 Tagen
web-share-month = 30 Tagen
web-share-password = Passwort (optional)
web-share-max = Höchstzahl an Downloads (optional)
web-share-upload = Ein Upload-Link: Andere legen Dateien in diesen Ordner
web-share-create = Link erstellen
web-share-created = Freigabelink { $id } erstellt. Kopieren Sie ihn jetzt: Er wird nur einmal angezeigt.
web-share-locked = Dieser Freigabelink braucht ein Passwort
web-share-wrong = Falsches Passwort.
web-share-open = Öffnen
