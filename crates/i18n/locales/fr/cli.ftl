# Messages de la ligne de commande de babelftp, en français.
# Les noms, URL, nombres et codes de réponse sont des arguments et ne sont jamais traduits.

cli-error = babelftp : erreur : { $error }
cli-bytes-to = { $bytes } octets -> { $dest }
cli-mirror-summary = { $copied } copiés ({ $bytes } octets), { $unchanged } inchangés, { $deleted } supprimés
cli-serving = babelftp sert { $root } sur { $url }
cli-connect-hint = Connectez-vous avec n'importe quel client FTP en tant que "anonymous" (lecture seule), par exemple : { $example }
cli-stopped = babelftp arrêté.
cli-connecting = connexion à { $host }
cli-refused = refus du serveur : { $reply }
cli-url-names-no-file = l'URL ne désigne aucun fichier
cli-bad-url = URL invalide { $url }
cli-unknown-charset = jeu de caractères inconnu { $charset }
cli-charset-guessed = jeu de caractères : { $charset } (deviné d'après { $count } noms)
cli-charset-remembered = jeu de caractères : { $charset } (mémorisé pour ce serveur)
cli-charset-explicit = jeu de caractères : { $charset } (donné par --charset)
cli-unknown-command = commande inconnue { $command } (essayez help)
cli-needs-argument = { $command } attend un argument
cli-creating = création de { $path }
cli-opening = ouverture de { $path }
cli-insecure = attention : --insecure : le certificat du serveur n'est pas vérifié ; n'importe qui sur le chemin réseau peut se faire passer pour { $host } et lire ou modifier cette session, mots de passe et fichiers compris
cli-access-anonymous-off = accès : connexions anonymes refusées
cli-access-anonymous-read = accès : anonyme, en lecture seule, sur toute la racine
cli-access-anonymous-write = accès : anonyme, en lecture et écriture, sur toute la racine
cli-access-user-write = accès : utilisateur { $name }, en lecture et écriture, dans { $home }
cli-access-user-read = accès : utilisateur { $name }, en lecture seule, dans { $home }
cli-root-missing = le répertoire racine { $path } n'existe pas (seul ftp-root, par défaut, est créé ; créez-le ou corrigez --root)
cli-bad-listen = --listen { $value } : { $error } (écrivez ADRESSE:PORT, HÔTE:PORT ou un PORT)
cli-starting = démarrage du serveur
cli-nofile-raised = fichiers ouverts : limite relevée de { $from } à { $to }
cli-nofile-capped = attention : les fichiers ouverts sont limités à { $limit } : environ { $sessions } sessions à la fois, pas les { $max } de --max-connections ; relevez la limite dure (ulimit -Hn, ou LimitNOFILE= dans une unité systemd)
cli-x3-password-prompt = Mot de passe de { $user } sur { $host } :
cli-x3-password-unread = lecture du mot de passe
cli-x3-passwd-new = Nouveau mot de passe :
cli-x3-passwd-again = Le même mot de passe, encore une fois :
cli-x3-passwd-mismatch = les deux mots de passe diffèrent ; rien n'a été affiché
cli-x3-passwd-empty = mot de passe vide
cli-x3-interrupted = { $command } : interrompu
cli-x3-reconnecting = la connexion n'est pas revenue en phase ; nouvelle connexion
cli-x3-mv-usage = mv attend deux noms : mv ANCIEN NOUVEAU
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = répertoire local : { $path }
cli-x3-local-command-failed = exécution de la commande locale
cli-x3-password-no-terminal = aucun terminal pour demander le mot de passe de { $user } sur { $host } : envoi d'un mot de passe vide (le donner avec -u { $user }:MOTDEPASSE ou dans ~/.netrc)
