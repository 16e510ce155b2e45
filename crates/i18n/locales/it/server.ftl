# Testi delle risposte del server babelftp, in italiano.
# Codici di risposta, nomi FEAT e percorsi non fanno mai parte di questi testi.
# Nella trasmissione un testo può essere preceduto da un percorso tra virgolette (risposte 257);
# "path-is-current" e "path-created" sono scritti per seguirlo.

greeting = babelftp pronto.
goodbye = Arrivederci.
command-ok = Comando eseguito.
need-password = Nome utente corretto, inserire la password.
logged-in = Utente autenticato, procedere.
logged-in-anonymous = Accesso anonimo consentito, in sola lettura.
login-failed = Accesso non riuscito.
home-unavailable = Accesso rifiutato: la directory home di questo account non è disponibile; rivolgersi all'amministratore.
not-logged-in = Effettuare prima l'accesso con USER e PASS.
already-logged-in = Accesso già effettuato.
account-not-needed = Nessun account necessario su questo sito.
bad-sequence = Sequenza di comandi errata.
cwd-ok = Directory cambiata.
path-is-current = è la directory corrente.
path-created = creata.
directory-removed = Directory rimossa.
file-deleted = File eliminato.
rename-pending = Il file esiste, in attesa del nome di destinazione.
renamed = Rinomina riuscita.
restart-pending = Ripresa da { $offset }. Inviare STOR o RETR per avviare il trasferimento.
type-set = Tipo impostato su { $type }.
stru-ok = Struttura impostata su F.
mode-ok = Modalità impostata su S.
superfluous = Comando superfluo in questo contesto.
system-type = UNIX Type: L8
features = Funzionalità:
end = Fine
help-intro = Sono riconosciuti i seguenti comandi:
help-end = Fine della guida.
status-intro = Stato:
status-end = Fine dello stato.
passive = Entrata in modalità passiva
extended-passive = Entrata in modalità passiva estesa
port-ok = Indirizzo della connessione dati attiva accettato.
port-refused = Rifiutato: l'indirizzo dati deve essere quello del client, su una porta pari o superiore a 1024.
opening-data = Apertura della connessione dati.
transfer-complete = Trasferimento completato.
transfer-aborted = Connessione chiusa; trasferimento interrotto.
abort-ok = Interruzione riuscita.
no-transfer = Nessun trasferimento da interrompere.
cant-open-data = Impossibile aprire la connessione dati.
passive-limit = Troppe porte passive occupate dal tuo indirizzo; riprova al termine di un trasferimento.
data-timeout = Timeout della connessione dati.
pasv-needs-ipv4 = PASV funziona solo su IPv4; usare EPSV.
epsv-all-only = Dopo EPSV ALL solo EPSV può stabilire connessioni dati.
epsv-all-ok = EPSV ALL accettato.
no-such-file = File o directory inesistente.
not-a-file = Non è un file regolare.
not-a-directory = Non è una directory.
permission-denied = Permesso negato.
file-exists = Il file esiste già.
directory-not-empty = La directory non è vuota.
no-space = Spazio di archiviazione insufficiente.
local-error = Errore locale durante l'elaborazione.
unknown-command = Comando non implementato.
syntax-error = Errore di sintassi, comando non riconosciuto.
argument-error = Errore di sintassi nei parametri o negli argomenti.
parameter-not-implemented = Comando non implementato per questo parametro.
protocol-not-supported = Protocollo di rete non supportato, usare (1,2)
line-too-long = Riga di comando troppo lunga.
idle-timeout = Timeout per inattività, chiusura della connessione di controllo.
shutting-down = Arresto del server, chiusura della connessione di controllo.
too-many-connections = Troppe connessioni, riprovare più tardi.
out-of-resources = Risorse esaurite (file aperti o memoria), chiusura della connessione di controllo; riprovare più tardi.
utf8-on = Percorsi UTF-8 attivati.
utf8-off = Percorsi UTF-8 disattivati: in uso il set di caratteri legacy del client.
option-unknown = Opzione non riconosciuta.
lang-ok = Lingua impostata su { $language }.
lang-default = Lingua ripristinata a quella predefinita, { $language }.
lang-unsupported = Lingua non supportata.
lang-malformed = Tag di lingua non valido.
host-ok = Host accettato.
host-unknown = Host sconosciuto.
host-after-login = HOST deve precedere l'accesso.
unique-name = Avvio del trasferimento; nome file univoco:
name-untranslatable = Il nome non può essere scritto nel set di caratteri di questa directory.
name-not-in-charset = Il nome non può essere memorizzato nel set di caratteri del server ({ $charset }).
language-name = Italiano

# FTPS (RFC 4217)
auth-ok = AUTH TLS accettato: avvio dell'handshake TLS.
auth-already = La connessione di controllo è già protetta.
auth-unsupported = Meccanismo di sicurezza non supportato; usare AUTH TLS.
prot-ok = Livello di protezione dei dati impostato su { $level }.
prot-unsupported = Livello di protezione non supportato; usare PROT C o PROT P.
ccc-refused = Non è consentito riportare in chiaro il canale dei comandi.
tls-required = TLS obbligatorio: inviare prima AUTH TLS.
prot-required = Le connessioni dati devono essere protette: inviare prima PROT P.
tls-reuse-required = Riutilizzo della sessione TLS richiesto sulla connessione dati (i client che non riprendono mai una sessione richiedono tls_reuse_required = false sul server).
tls-data-failed = Negoziazione TLS sulla connessione dati non riuscita.
chmod-ok = Comando SITE CHMOD eseguito.
bad-mode = Uso: SITE CHMOD <modo> <percorso>, il modo in ottale da 0 a 777.
site-help = Comandi SITE:
site-unknown = Comando SITE sconosciuto (SITE HELP li elenca).
storage-unsupported = Non possibile su questo archivio (un object store non ha accodamento, scrittura da una posizione né permessi).
policy-denied = Permesso negato: questo account non ha qui il diritto «{ $perm }».
policy-denied-inside = Permesso negato: questa cartella interna non ha il diritto «{ $perm }» e verrebbe spostata o rimossa insieme.
banned = Troppi accessi falliti dal vostro indirizzo: riprovate più tardi.
user-sessions-limit = Questo account ha già aperte tutte le sessioni consentite: chiuderne una e riprovare.
quota-exceeded = Quota superata: questo caricamento supererebbe il limite dell’account; il file è rimasto com’era.
quota-entries = Quota superata: questo account non può avere altri file o cartelle.
quota-status = Quota di questo account:
quota-bytes = Spazio: { $used } usati su { $limit }
quota-files = File: { $used } su { $limit }
quota-no-limit = nessun limite
quota-none = Questo account non ha una quota.
ended-by-admin = Un amministratore ha chiuso questa sessione.
web-bad-path = Questo indirizzo non è un percorso di questo server.
web-bad-method = Questo metodo non è supportato qui.
web-csrf = Il modulo è scaduto o proviene da un altro sito: ricarica la pagina e riprova.
web-bad-action = Azione sconosciuta.
web-bad-form = Impossibile leggere il modulo.
web-login-failed = Accesso non riuscito: nome utente o password errati.
web-unavailable = Il server non può rispondere ora; riprova più tardi.
web-not-found = File o cartella inesistente.
web-denied = Non hai il permesso di farlo qui.
web-denied-inside = Non è consentito: la cartella «{ $path }» al suo interno non permette «{ $perm }».
web-exists = Esiste già un file o una cartella con quel nome.
web-not-empty = La cartella non è vuota.
web-bad-name = Quel nome non può essere usato qui.
web-quota = Quota superata: questo caricamento supererebbe il limite dell'account; non è stato tenuto nulla.
web-full = Lo spazio di archiviazione è pieno; non è stato tenuto nulla.
web-busy = Questo account ha già tutte le sessioni aperte consentite: chiudine una e riprova.
web-unsupported = L'archiviazione non lo supporta.
web-signed-in = Accesso come { $user }
web-logout = Esci
web-login = Accedi
web-language = Lingua
web-language-apply = Applica
web-upload-label = Carica file:
web-upload = Carica
web-mkdir-label = Nuova cartella:
web-mkdir = Crea
web-paged = Questa cartella è grande: { $count } voci per pagina, nell'ordine dell'archiviazione (pagina { $page }); l'ordinamento vale all'interno della pagina.
web-copy-ftp = Copia link FTP
web-copied = Copiato
web-col-name = Nome
web-col-size = Dimensione
web-col-time = Modificato
web-details = dettagli
web-empty = Questa cartella è vuota.
web-page-prev = Pagina precedente
web-page-next = Pagina successiva
web-link-web = Link web
web-link-ftp = Link FTP
web-download = Scarica
web-rename-label = Nuovo nome:
web-rename = Rinomina
web-delete = Elimina
web-user = Nome utente
web-password = Password
web-stalled = Il caricamento ha smesso di arrivare; non è stato salvato nulla.

# issue 45: server
reserved-name = Questo nome è riservato ai file temporanei di caricamento del server (.babelftp-*.part); sceglierne un altro.
web-reserved-name = Quel nome è riservato ai file temporanei di caricamento del server (.babelftp-*.part); sceglierne un altro.


# issue 48 (operate)
server-full = Il server ha aperte tutte le sessioni che consente ({ $max }): riprovare più tardi.
address-full = Il vostro indirizzo ha aperte tutte le sessioni che questo server consente da un indirizzo ({ $max }): chiudetene una o riprovate più tardi.
# issue 48 (access)
web-drop-box = Può depositare file qui, ma non vedere il contenuto di questa cartella.
lang-account = Lingua ripristinata a quella del suo account, { $language }.
lang-default-until-login = Lingua ripristinata a quella predefinita, { $language }; un account con una lingua propria la riceve all'accesso.
# issue 48 (ftps)
tls-reuse-required-account = Riutilizzo della sessione TLS richiesto sulla connessione dati (i client che non riprendono mai una sessione richiedono tls_reuse_required = false sul server, oppure babelftp user set NOME --tls-reuse optional per il loro account).
# issue 49 (find)
web-find-label = Cerca in questa cartella:
web-find = Cerca
web-found = «{ $text }» in { $path }: { $count } trovati
web-found-none = Nessun nome qui o nelle sottocartelle contiene «{ $text }».
web-found-cut = La ricerca si è fermata prima della fine (al massimo { $results } risultati e { $entries } voci esaminate): restringila o cerca in una cartella più in basso.
web-found-back = Torna alla cartella
web-find-too-long = Il testo da cercare è troppo lungo: al massimo { $max } byte.
# issue 49 (page)
web-login-title = Accedi a { $product }
# issue 49 (zip)
web-zip-download = Scarica la selezione come zip
web-zip-select = Seleziona
web-zip-none = Spunta almeno una voce da scaricare come zip.
web-preview = Anteprima
web-preview-charset = Set di caratteri: { $charset }
web-preview-cut = Sono mostrati solo i primi { $size }.

# issue 49 (upload)
web-skip = Vai al contenuto
web-col-actions = Azioni
web-size-exact = { $bytes } byte
web-row-menu = Azioni per { $name }
web-uploads = Caricamenti
web-upload-waiting = In attesa
web-upload-sending = Invio in corso
web-upload-done = Fatto
web-upload-cancel = Annulla
web-upload-cancelled = Annullato
web-upload-failed = Non riuscito: la connessione si è interrotta.
# issue 49 (share)
web-share-gone = Questo link di condivisione non funziona più: è scaduto, esaurito o è stato rimosso.
web-share-network = Questo link di condivisione non può essere usato dalla tua rete.
web-share-unavailable = I link di condivisione richiedono un account dell’archivio account.
web-share-title = Link di condivisione
web-share-expires = Scade dopo
web-share-never = mai
web-share-hour = 1 ora
web-share-day = 1 giorno
web-share-week = 7 giorni
web-share-month = 30 giorni
web-share-password = Password (facoltativa)
web-share-max = Limite di download (facoltativo)
web-share-upload = Un link di caricamento: altri mettono file in questa cartella
web-share-create = Crea link
web-share-created = Link di condivisione { $id } creato. Copialo ora: viene mostrato una sola volta.
web-share-locked = Questo link di condivisione richiede una password
web-share-wrong = Password errata.
web-share-open = Apri
