# Komunikaty wiersza poleceń babelftp, po polsku.
# Nazwy, adresy URL, liczby i kody odpowiedzi są argumentami i nigdy nie są tłumaczone.

cli-error = babelftp: błąd: { $error }
cli-bytes-to = { $bytes } bajtów -> { $dest }
cli-mirror-summary = skopiowano: { $copied } ({ $bytes } bajtów), bez zmian: { $unchanged }, usunięto: { $deleted }
cli-serving = babelftp udostępnia { $root } pod adresem { $url }
cli-connect-hint = Połącz się dowolnym klientem FTP jako "anonymous" (tylko odczyt), np.: { $example }
cli-stopped = babelftp zatrzymany.
cli-connecting = łączenie z { $host }
cli-refused = serwer odmówił: { $reply }
cli-url-names-no-file = adres URL nie wskazuje pliku
cli-bad-url = nieprawidłowy adres URL { $url }
cli-unknown-charset = nieznane kodowanie znaków { $charset }
cli-charset-guessed = kodowanie znaków: { $charset } (odgadnięte z { $count } nazw)
cli-charset-remembered = kodowanie znaków: { $charset } (zapamiętane dla tego serwera)
cli-charset-explicit = kodowanie znaków: { $charset } (z --charset)
cli-unknown-command = nieznane polecenie { $command } (spróbuj help)
cli-needs-argument = { $command } wymaga argumentu
cli-creating = tworzenie { $path }
cli-opening = otwieranie { $path }
cli-insecure = uwaga: --insecure: certyfikat serwera nie jest sprawdzany; każdy na ścieżce sieciowej może podszyć się pod { $host } i czytać lub zmieniać tę sesję, łącznie z hasłami i plikami
