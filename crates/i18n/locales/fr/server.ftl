# Textes des réponses du serveur babelftp, en français.
# Les codes de réponse, les noms FEAT et les chemins ne font jamais partie de ces textes.
# Sur le réseau, un texte peut être précédé d'un chemin entre guillemets (réponses 257) ;
# "path-is-current" et "path-created" sont rédigés pour le suivre.

greeting = babelftp prêt.
goodbye = Au revoir.
command-ok = Commande exécutée.
need-password = Nom d'utilisateur accepté, mot de passe requis.
logged-in = Utilisateur connecté, vous pouvez continuer.
logged-in-anonymous = Accès anonyme accordé, en lecture seule.
login-failed = Identifiants incorrects.
home-unavailable = Connexion refusée : le répertoire personnel de ce compte n'est pas disponible ; adressez-vous à l'administrateur.
not-logged-in = Veuillez d'abord vous connecter avec USER et PASS.
already-logged-in = Déjà connecté.
account-not-needed = Aucun compte n'est nécessaire sur ce site.
bad-sequence = Mauvaise séquence de commandes.
cwd-ok = Répertoire changé.
path-is-current = est le répertoire courant.
path-created = créé.
directory-removed = Répertoire supprimé.
file-deleted = Fichier supprimé.
rename-pending = Le fichier existe, en attente du nom de destination.
renamed = Renommage réussi.
restart-pending = Reprise à { $offset }. Envoyez STOR ou RETR pour lancer le transfert.
type-set = Type défini sur { $type }.
stru-ok = Structure définie sur F.
mode-ok = Mode défini sur S.
superfluous = Commande superflue ici.
system-type = UNIX Type: L8
features = Fonctionnalités :
end = Fin
help-intro = Les commandes suivantes sont reconnues :
help-end = Fin de l'aide.
status-intro = État :
status-end = Fin de l'état.
passive = Passage en mode passif
extended-passive = Passage en mode passif étendu
port-ok = Adresse de connexion de données active acceptée.
port-refused = Refusé : l'adresse de données doit être la vôtre, sur un port supérieur ou égal à 1024.
opening-data = Ouverture de la connexion de données.
transfer-complete = Transfert terminé.
transfer-aborted = Connexion fermée ; transfert interrompu.
abort-ok = Abandon réussi.
no-transfer = Aucun transfert à interrompre.
cant-open-data = Impossible d'ouvrir la connexion de données.
passive-limit = Trop de ports passifs retenus depuis votre adresse ; réessayez à la fin d'un transfert.
data-timeout = Délai dépassé sur la connexion de données.
pasv-needs-ipv4 = PASV ne fonctionne qu'en IPv4 ; utilisez EPSV.
epsv-all-only = Après EPSV ALL, seul EPSV peut établir des connexions de données.
epsv-all-ok = EPSV ALL accepté.
no-such-file = Fichier ou répertoire introuvable.
not-a-file = Ce n'est pas un fichier ordinaire.
not-a-directory = Ce n'est pas un répertoire.
permission-denied = Permission refusée.
file-exists = Le fichier existe déjà.
directory-not-empty = Répertoire non vide.
no-space = Espace de stockage insuffisant.
local-error = Erreur locale lors du traitement.
unknown-command = Commande non implémentée.
syntax-error = Erreur de syntaxe, commande non reconnue.
argument-error = Erreur de syntaxe dans les paramètres ou les arguments.
parameter-not-implemented = Commande non implémentée pour ce paramètre.
protocol-not-supported = Protocole réseau non pris en charge, utilisez (1,2)
line-too-long = Ligne de commande trop longue.
idle-timeout = Délai d'inactivité dépassé, fermeture de la connexion de contrôle.
shutting-down = Arrêt du serveur, fermeture de la connexion de contrôle.
too-many-connections = Trop de connexions, réessayez plus tard.
out-of-resources = Ressources épuisées (fichiers ouverts ou mémoire), fermeture de la connexion de contrôle ; réessayez plus tard.
utf8-on = Chemins en UTF-8 activés.
utf8-off = Chemins en UTF-8 désactivés : jeu de caractères historique du client utilisé.
option-unknown = Option non comprise.
lang-ok = Langue définie sur { $language }.
lang-default = Langue réinitialisée à la langue par défaut, { $language }.
lang-unsupported = Langue non prise en charge.
lang-malformed = Étiquette de langue mal formée.
host-ok = Hôte accepté.
host-unknown = Hôte inconnu.
host-after-login = HOST doit précéder la connexion.
unique-name = Début du transfert ; nom de fichier unique :
name-untranslatable = Le nom ne peut pas être écrit dans le jeu de caractères de ce répertoire.
name-not-in-charset = Le nom ne peut pas être enregistré dans le jeu de caractères du serveur ({ $charset }).
language-name = Français

# FTPS (RFC 4217)
auth-ok = AUTH TLS accepté : lancement de la négociation TLS.
auth-already = La connexion de contrôle est déjà protégée.
auth-unsupported = Mécanisme de sécurité non pris en charge ; utilisez AUTH TLS.
prot-ok = Niveau de protection des données défini sur { $level }.
prot-unsupported = Niveau de protection non pris en charge ; utilisez PROT C ou PROT P.
ccc-refused = Le retour en clair du canal de commande n'est pas autorisé.
tls-required = TLS obligatoire : envoyez d'abord AUTH TLS.
prot-required = Les connexions de données doivent être protégées : envoyez d'abord PROT P.
tls-reuse-required = Réutilisation de la session TLS requise sur la connexion de données (les clients qui ne reprennent jamais de session ont besoin de tls_reuse_required = false sur le serveur).
tls-data-failed = Échec de la négociation TLS sur la connexion de données.
chmod-ok = Commande SITE CHMOD réussie.
bad-mode = Usage : SITE CHMOD <mode> <chemin>, le mode en octal de 0 à 777.
site-help = Commandes SITE :
site-unknown = Commande SITE inconnue (SITE HELP les liste).
storage-unsupported = Impossible sur ce stockage (un stockage objet n’a ni ajout, ni écriture à une position, ni permissions).
policy-denied = Permission refusée : ce compte n’a pas ici le droit « { $perm } ».
policy-denied-inside = Permission refusée : ce dossier intérieur n’a pas le droit « { $perm } », et il serait déplacé ou supprimé avec.
banned = Trop de connexions échouées depuis votre adresse : réessayez plus tard.
user-sessions-limit = Ce compte a déjà autant de sessions ouvertes qu’il en a le droit : fermez-en une et réessayez.
quota-exceeded = Quota dépassé : ce dépôt dépasserait la limite du compte ; le fichier est resté tel quel.
quota-entries = Quota dépassé : ce compte ne peut plus avoir d’autres fichiers ou dossiers.
quota-status = Quota de ce compte :
quota-bytes = Espace : { $used } utilisés sur { $limit }
quota-files = Fichiers : { $used } sur { $limit }
quota-no-limit = sans limite
quota-none = Ce compte n’a pas de quota.
ended-by-admin = Un administrateur a mis fin à cette session.
web-bad-path = Cette adresse n’est pas un chemin de ce serveur.
web-bad-method = Cette méthode n’est pas prise en charge ici.
web-csrf = Le formulaire a expiré ou vient d’un autre site : rechargez la page et réessayez.
web-bad-action = Action inconnue.
web-bad-form = Le formulaire est illisible.
web-login-failed = Échec de la connexion : nom d’utilisateur ou mot de passe incorrect.
web-unavailable = Le serveur ne peut pas répondre pour l’instant ; réessayez plus tard.
web-not-found = Fichier ou dossier introuvable.
web-denied = Vous n’avez pas la permission de faire cela ici.
web-denied-inside = Action impossible : le dossier « { $path } » qu’il contient n’autorise pas « { $perm } ».
web-exists = Un fichier ou un dossier de ce nom existe déjà.
web-not-empty = Le dossier n’est pas vide.
web-bad-name = Ce nom ne peut pas être utilisé ici.
web-quota = Quota dépassé : ce téléversement dépasserait la limite du compte ; rien n’a été conservé.
web-full = Le stockage est plein ; rien n’a été conservé.
web-busy = Ce compte a autant de sessions ouvertes qu’il le peut : fermez-en une et réessayez.
web-unsupported = Le stockage ne permet pas cela.
web-signed-in = Connecté en tant que { $user }
web-logout = Se déconnecter
web-login = Se connecter
web-language = Langue
web-language-apply = Appliquer
web-upload-label = Téléverser des fichiers :
web-upload = Téléverser
web-mkdir-label = Nouveau dossier :
web-mkdir = Créer
web-paged = Ce dossier est volumineux : { $count } entrées par page, dans l’ordre du stockage (page { $page }) ; le tri s’applique dans la page.
web-copy-ftp = Copier le lien FTP
web-copied = Copié
web-col-name = Nom
web-col-size = Taille
web-col-time = Modifié
web-details = détails
web-empty = Ce dossier est vide.
web-page-prev = Page précédente
web-page-next = Page suivante
web-link-web = Lien web
web-link-ftp = Lien FTP
web-download = Télécharger
web-rename-label = Nouveau nom :
web-rename = Renommer
web-delete = Supprimer
web-user = Nom d’utilisateur
web-password = Mot de passe
web-stalled = L’envoi a cessé d’arriver ; rien n’a été enregistré.

# issue 45: server
reserved-name = Ce nom est réservé aux fichiers temporaires de téléversement du serveur (.babelftp-*.part) ; choisissez-en un autre.
web-reserved-name = Ce nom est réservé aux fichiers temporaires de téléversement du serveur (.babelftp-*.part) ; choisissez-en un autre.


# issue 48 (operate)
server-full = Le serveur a autant de sessions ouvertes qu'il en permet ({ $max }) : réessayez plus tard.
address-full = Votre adresse a autant de sessions ouvertes que ce serveur en permet par adresse ({ $max }) : fermez-en une ou réessayez plus tard.
# issue 48 (access)
web-drop-box = Vous pouvez déposer des fichiers ici, mais pas voir ce que contient ce dossier.
lang-account = Langue réinitialisée à celle de votre compte, { $language }.
lang-default-until-login = Langue réinitialisée à la langue par défaut, { $language } ; un compte qui a sa propre langue la retrouve à la connexion.
# issue 48 (ftps)
tls-reuse-required-account = Réutilisation de la session TLS requise sur la connexion de données (les clients qui ne reprennent jamais de session ont besoin de tls_reuse_required = false sur le serveur, ou babelftp user set NOM --tls-reuse optional pour leur compte).
# issue 49 (find)
web-find-label = Rechercher dans ce dossier :
web-find = Rechercher
web-found = « { $text } » dans { $path } : { $count } trouvé(s)
web-found-none = Aucun nom ici ou en dessous ne contient « { $text } ».
web-found-cut = La recherche s'est arrêtée avant la fin (au plus { $results } résultats et { $entries } entrées examinées) : précisez-la, ou cherchez dans un dossier plus bas.
web-found-back = Retour au dossier
web-find-too-long = Le texte recherché est trop long : { $max } octets au plus.
# issue 49 (page)
web-login-title = Se connecter à { $product }
# issue 49 (zip)
web-zip-download = Télécharger la sélection en zip
web-zip-select = Sélection
web-zip-none = Cochez au moins une entrée à télécharger en zip.
web-preview = Aperçu
web-preview-charset = Jeu de caractères : { $charset }
web-preview-cut = Seuls les premiers { $size } sont affichés.

# issue 49 (upload)
web-skip = Aller au contenu
web-col-actions = Actions
web-size-exact = { $bytes } octets
web-row-menu = Actions pour { $name }
web-uploads = Envois
web-upload-waiting = En attente
web-upload-sending = Envoi en cours
web-upload-done = Terminé
web-upload-cancel = Annuler
web-upload-cancelled = Annulé
web-upload-failed = Échec : la connexion a été perdue.
# issue 49 (share)
web-share-gone = Ce lien de partage ne fonctionne plus : il a expiré, a été épuisé ou a été supprimé.
web-share-network = Ce lien de partage ne peut pas être utilisé depuis votre réseau.
web-share-unavailable = Les liens de partage demandent un compte du magasin de comptes.
web-share-title = Lien de partage
web-share-expires = Expire après
web-share-never = jamais
web-share-hour = 1 heure
web-share-day = 1 jour
web-share-week = 7 jours
web-share-month = 30 jours
web-share-password = Mot de passe (facultatif)
web-share-max = Nombre maximal de téléchargements (facultatif)
web-share-upload = Un lien de dépôt : d’autres déposent des fichiers dans ce dossier
web-share-create = Créer le lien
web-share-created = Lien de partage { $id } créé. Copiez-le maintenant : il n’est affiché qu’une fois.
web-share-locked = Ce lien de partage demande un mot de passe
web-share-wrong = Mot de passe incorrect.
web-share-open = Ouvrir
