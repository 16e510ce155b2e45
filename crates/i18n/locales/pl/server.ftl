# Teksty odpowiedzi serwera babelftp, polski (tłumaczenie angielskiego katalogu źródłowego).
# Kody odpowiedzi, nazwy funkcji FEAT i ścieżki nigdy nie są częścią tych tekstów.
# Tekst może być poprzedzony w odpowiedzi ścieżką w cudzysłowie (odpowiedzi 257);
# "path-is-current" i "path-created" są napisane tak, aby następowały po niej.

greeting = Serwer babelftp gotowy do pracy.
goodbye = Do widzenia.
command-ok = Polecenie wykonane pomyślnie.
need-password = Nazwa użytkownika poprawna, wymagane hasło.
logged-in = Użytkownik zalogowany, można kontynuować.
logged-in-anonymous = Przyznano dostęp anonimowy, tylko do odczytu.
login-failed = Nieprawidłowa nazwa użytkownika lub hasło.
home-unavailable = Logowanie odrzucone: katalog domowy tego konta jest niedostępny; skontaktuj się z administratorem.
not-logged-in = Najpierw zaloguj się za pomocą USER i PASS.
already-logged-in = Użytkownik jest już zalogowany.
account-not-needed = Konto nie jest wymagane na tym serwerze.
bad-sequence = Nieprawidłowa kolejność poleceń.
cwd-ok = Katalog zmieniony.
path-is-current = jest bieżącym katalogiem.
path-created = został utworzony.
directory-removed = Katalog usunięty.
file-deleted = Plik usunięty.
rename-pending = Plik istnieje, oczekiwanie na nazwę docelową.
renamed = Zmiana nazwy zakończona pomyślnie.
restart-pending = Wznowienie od pozycji { $offset }. Wyślij STOR lub RETR, aby rozpocząć transfer.
type-set = Ustawiono typ { $type }.
stru-ok = Ustawiono strukturę F.
mode-ok = Ustawiono tryb S.
superfluous = Polecenie jest tu zbędne.
system-type = UNIX Type: L8
features = Funkcje:
end = Koniec
help-intro = Rozpoznawane są następujące polecenia:
help-end = Koniec pomocy.
status-intro = Stan:
status-end = Koniec informacji o stanie.
passive = Przejście w tryb pasywny
extended-passive = Przejście w rozszerzony tryb pasywny
port-ok = Adres aktywnego połączenia danych zaakceptowany.
port-refused = Odrzucono: adres danych musi być Twoim własnym adresem, a port musi wynosić co najmniej 1024.
opening-data = Otwieranie połączenia danych.
transfer-complete = Transfer zakończony.
transfer-aborted = Połączenie zamknięte; transfer przerwany.
abort-ok = Przerwanie zakończone pomyślnie.
no-transfer = Brak transferu do przerwania.
cant-open-data = Nie można otworzyć połączenia danych.
passive-limit = Zbyt wiele portów pasywnych zajętych z Twojego adresu; spróbuj ponownie po zakończeniu transferu.
data-timeout = Przekroczono limit czasu połączenia danych.
pasv-needs-ipv4 = PASV działa tylko przez IPv4; użyj EPSV.
epsv-all-only = Po EPSV ALL tylko EPSV może zestawiać połączenia danych.
epsv-all-ok = Polecenie EPSV ALL zaakceptowane.
no-such-file = Nie ma takiego pliku ani katalogu.
not-a-file = To nie jest zwykły plik.
not-a-directory = To nie jest katalog.
permission-denied = Brak dostępu.
file-exists = Plik już istnieje.
directory-not-empty = Katalog nie jest pusty.
no-space = Za mało miejsca na dysku.
local-error = Lokalny błąd podczas przetwarzania.
unknown-command = Polecenie nie jest zaimplementowane.
syntax-error = Błąd składni, nierozpoznane polecenie.
argument-error = Błąd składni w parametrach lub argumentach.
parameter-not-implemented = Polecenie nie jest zaimplementowane dla tego parametru.
protocol-not-supported = Protokół sieciowy nieobsługiwany, użyj (1,2)
line-too-long = Zbyt długi wiersz polecenia.
idle-timeout = Przekroczono limit czasu bezczynności, zamykanie połączenia sterującego.
shutting-down = Serwer jest wyłączany, zamykanie połączenia sterującego.
too-many-connections = Zbyt wiele połączeń, spróbuj ponownie później.
out-of-resources = Brak zasobów (otwartych plików lub pamięci), zamykanie połączenia sterującego; spróbuj ponownie później.
utf8-on = Ścieżki w UTF-8 włączone.
utf8-off = Ścieżki w UTF-8 wyłączone: używane jest starsze kodowanie znaków klienta.
option-unknown = Nierozpoznana opcja.
lang-ok = Ustawiono język: { $language }.
lang-default = Przywrócono język domyślny: { $language }.
lang-unsupported = Język nie jest obsługiwany.
lang-malformed = Nieprawidłowy znacznik języka.
host-ok = Host zaakceptowany.
host-unknown = Nieznany host.
host-after-login = Polecenie HOST musi poprzedzać logowanie.
unique-name = Rozpoczynanie transferu; unikalna nazwa pliku:
name-untranslatable = Tej nazwy nie można zapisać w kodowaniu znaków tego katalogu.
name-not-in-charset = Tej nazwy nie można zapisać w kodowaniu znaków serwera ({ $charset }).
language-name = Polski

# FTPS (RFC 4217)
auth-ok = Polecenie AUTH TLS zaakceptowane: rozpoczynanie negocjacji TLS.
auth-already = Połączenie sterujące jest już chronione.
auth-unsupported = Mechanizm zabezpieczeń nieobsługiwany; użyj AUTH TLS.
prot-ok = Ustawiono poziom ochrony danych: { $level }.
prot-unsupported = Poziom ochrony nieobsługiwany; użyj PROT C lub PROT P.
ccc-refused = Wyłączanie ochrony kanału poleceń jest niedozwolone.
tls-required = Wymagany TLS: najpierw wyślij AUTH TLS.
prot-required = Połączenia danych muszą być chronione: najpierw wyślij PROT P.
tls-reuse-required = Połączenie danych wymaga ponownego użycia sesji TLS (klienci, którzy nigdy nie wznawiają sesji, wymagają ustawienia tls_reuse_required = false na serwerze).
tls-data-failed = Negocjacja TLS na połączeniu danych nie powiodła się.
chmod-ok = Polecenie SITE CHMOD wykonane.
bad-mode = Użycie: SITE CHMOD <tryb> <ścieżka>, tryb ósemkowo od 0 do 777.
site-help = Polecenia SITE:
site-unknown = Nieznane polecenie SITE (SITE HELP je wymienia).
storage-unsupported = Niemożliwe w tym magazynie (magazyn obiektów nie ma dopisywania, zapisu od pozycji ani uprawnień).
policy-denied = Brak dostępu: to konto nie ma tutaj prawa „{ $perm }”.
policy-denied-inside = Brak dostępu: ten folder wewnątrz nie ma prawa „{ $perm }”, a zostałby przeniesiony lub usunięty razem z nim.
banned = Zbyt wiele nieudanych logowań z Twojego adresu: spróbuj ponownie później.
user-sessions-limit = To konto ma już otwarte wszystkie dozwolone sesje: zamknij jedną i spróbuj ponownie.
quota-exceeded = Przekroczono limit: to przesłanie przekroczyłoby limit konta; plik pozostał bez zmian.
quota-entries = Przekroczono limit: to konto nie może mieć więcej plików ani folderów.
quota-status = Limit tego konta:
quota-bytes = Miejsce: zajęte { $used } z { $limit }
quota-files = Pliki: { $used } z { $limit }
quota-no-limit = bez limitu
quota-none = To konto nie ma limitu.
ended-by-admin = Administrator zakończył tę sesję.
web-bad-path = Ten adres nie jest ścieżką tego serwera.
web-bad-method = Ta metoda nie jest tu obsługiwana.
web-csrf = Formularz wygasł lub pochodzi z innej witryny: odśwież stronę i spróbuj ponownie.
web-bad-action = Nieznana akcja.
web-bad-form = Nie udało się odczytać formularza.
web-login-failed = Logowanie nieudane: błędna nazwa użytkownika lub hasło.
web-unavailable = Serwer nie może teraz odpowiedzieć; spróbuj później.
web-not-found = Nie ma takiego pliku ani folderu.
web-denied = Nie masz uprawnień, by to tu zrobić.
web-denied-inside = Nie można tego zrobić: folder „{ $path }” wewnątrz nie pozwala na „{ $perm }”.
web-exists = Plik lub folder o tej nazwie już istnieje.
web-not-empty = Folder nie jest pusty.
web-bad-name = Tej nazwy nie można tu użyć.
web-quota = Przekroczono limit: to wysyłanie przekroczyłoby limit konta; niczego nie zachowano.
web-full = Pamięć jest pełna; niczego nie zachowano.
web-busy = To konto ma otwartych tyle sesji, ile może: zamknij jedną i spróbuj ponownie.
web-unsupported = Magazyn tego nie obsługuje.
web-signed-in = Zalogowano jako { $user }
web-logout = Wyloguj
web-login = Zaloguj
web-language = Język
web-language-apply = Zastosuj
web-upload-label = Wyślij pliki:
web-upload = Wyślij
web-mkdir-label = Nowy folder:
web-mkdir = Utwórz
web-paged = Ten folder jest duży: { $count } pozycji na stronę, w kolejności magazynu (strona { $page }); sortowanie działa w obrębie strony.
web-copy-ftp = Kopiuj link FTP
web-copied = Skopiowano
web-col-name = Nazwa
web-col-size = Rozmiar
web-col-time = Zmodyfikowano
web-details = szczegóły
web-empty = Ten folder jest pusty.
web-page-prev = Poprzednia strona
web-page-next = Następna strona
web-link-web = Link WWW
web-link-ftp = Link FTP
web-download = Pobierz
web-rename-label = Nowa nazwa:
web-rename = Zmień nazwę
web-delete = Usuń
web-user = Nazwa użytkownika
web-password = Hasło
web-stalled = Przesyłanie przestało docierać; nic nie zapisano.

# issue 45: server
reserved-name = Ta nazwa jest zarezerwowana dla tymczasowych plików przesyłania serwera (.babelftp-*.part); wybierz inną.
web-reserved-name = Ta nazwa jest zarezerwowana dla tymczasowych plików przesyłania serwera (.babelftp-*.part); wybierz inną.


# issue 48 (operate)
server-full = Serwer ma otwartych tyle sesji, ile dopuszcza ({ $max }): spróbuj ponownie później.
address-full = Twój adres ma otwartych tyle sesji, ile ten serwer dopuszcza z jednego adresu ({ $max }): zamknij jedną lub spróbuj ponownie później.
# issue 48 (access)
web-drop-box = Możesz tu umieszczać pliki, ale nie możesz zobaczyć zawartości tego folderu.
lang-account = Przywrócono język Twojego konta: { $language }.
lang-default-until-login = Przywrócono język domyślny: { $language }; konto z własnym językiem otrzyma go po zalogowaniu.
# issue 48 (ftps)
tls-reuse-required-account = Połączenie danych wymaga ponownego użycia sesji TLS (klienci, którzy nigdy nie wznawiają sesji, wymagają ustawienia tls_reuse_required = false na serwerze albo babelftp user set NAZWA --tls-reuse optional dla ich konta).
# issue 49 (find)
web-find-label = Szukaj w tym folderze:
web-find = Szukaj
web-found = „{ $text }” w { $path }: znaleziono { $count }
web-found-none = Żadna nazwa tutaj ani niżej nie zawiera „{ $text }”.
web-found-cut = Wyszukiwanie przerwano przed końcem (najwyżej { $results } wyników i { $entries } przejrzanych pozycji): zawęź je albo szukaj w folderze niżej.
web-found-back = Wróć do folderu
web-find-too-long = Szukany tekst jest za długi: najwyżej { $max } bajtów.
# issue 49 (page)
web-login-title = Zaloguj się do { $product }
# issue 49 (zip)
web-zip-download = Pobierz zaznaczone jako zip
web-zip-select = Zaznacz
web-zip-none = Zaznacz co najmniej jedną pozycję do pobrania jako zip.
web-preview = Podgląd
web-preview-charset = Kodowanie znaków: { $charset }
web-preview-cut = Pokazano tylko pierwsze { $size }.

# issue 49 (upload)
web-skip = Przejdź do treści
web-col-actions = Działania
web-size-exact = { $bytes } bajtów
web-row-menu = Działania dla { $name }
web-uploads = Przesyłane pliki
web-upload-waiting = Oczekuje
web-upload-sending = Wysyłanie
web-upload-done = Gotowe
web-upload-cancel = Anuluj
web-upload-cancelled = Anulowano
web-upload-failed = Niepowodzenie: połączenie zostało przerwane.
# issue 49 (share)
web-share-gone = Ten link udostępniania już nie działa: wygasł, został wykorzystany lub usunięty.
web-share-network = Tego linku udostępniania nie można użyć z Twojej sieci.
web-share-unavailable = Linki udostępniania wymagają konta w magazynie kont.
web-share-title = Link udostępniania
web-share-expires = Wygasa po
web-share-never = nigdy
web-share-hour = 1 godzinie
web-share-day = 1 dniu
web-share-week = 7 dniach
web-share-month = 30 dniach
web-share-password = Hasło (opcjonalne)
web-share-max = Limit pobrań (opcjonalny)
web-share-upload = Link do przesyłania: inni wrzucają pliki do tego folderu
web-share-create = Utwórz link
web-share-created = Utworzono link udostępniania { $id }. Skopiuj go teraz: jest pokazywany tylko raz.
web-share-locked = Ten link udostępniania wymaga hasła
web-share-wrong = Błędne hasło.
web-share-open = Otwórz
