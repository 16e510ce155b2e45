# טקסטים של תשובות השרת babelftp, עברית (תרגום של הקטלוג המקורי באנגלית).
# קודי תשובה, שמות תכונות FEAT ונתיבים לעולם אינם חלק מטקסטים אלה.
# לפני טקסט עשוי להופיע בתשובה נתיב בין מירכאות (תשובות 257);
# "path-is-current" ו-"path-created" כתובים כך שיבואו אחריו.

greeting = שרת babelftp מוכן.
goodbye = להתראות.
command-ok = הפקודה בוצעה בהצלחה.
need-password = שם המשתמש התקבל, נדרשת סיסמה.
logged-in = המשתמש מחובר, אפשר להמשיך.
logged-in-anonymous = ניתנה גישה אנונימית, לקריאה בלבד.
login-failed = פרטי ההתחברות שגויים.
home-unavailable = ההתחברות נדחתה: תיקיית הבית של חשבון זה אינה זמינה; יש לפנות למנהל המערכת.
not-logged-in = יש להתחבר תחילה באמצעות USER ו-PASS.
already-logged-in = המשתמש כבר מחובר.
account-not-needed = אין צורך בחשבון בשרת זה.
bad-sequence = רצף פקודות שגוי.
cwd-ok = התיקייה שונתה.
path-is-current = היא התיקייה הנוכחית.
path-created = נוצרה.
directory-removed = התיקייה נמחקה.
file-deleted = הקובץ נמחק.
rename-pending = הקובץ קיים, ממתין לשם היעד.
renamed = שינוי השם בוצע בהצלחה.
restart-pending = ממשיך ממיקום { $offset }. יש לשלוח STOR או RETR כדי להתחיל את ההעברה.
type-set = הסוג הוגדר ל-{ $type }.
stru-ok = המבנה הוגדר ל-F.
mode-ok = המצב הוגדר ל-S.
superfluous = הפקודה מיותרת כאן.
system-type = UNIX Type: L8
features = תכונות:
end = סוף
help-intro = הפקודות הבאות מוכרות:
help-end = סוף העזרה.
status-intro = מצב:
status-end = סוף דוח המצב.
passive = מעבר למצב פסיבי
extended-passive = מעבר למצב פסיבי מורחב
port-ok = כתובת חיבור הנתונים הפעיל התקבלה.
port-refused = נדחה: כתובת הנתונים חייבת להיות הכתובת שלך, בפורט 1024 ומעלה.
opening-data = פותח חיבור נתונים.
transfer-complete = ההעברה הושלמה.
transfer-aborted = החיבור נסגר; ההעברה בוטלה.
abort-ok = הביטול בוצע בהצלחה.
no-transfer = אין העברה לבטל.
cant-open-data = לא ניתן לפתוח חיבור נתונים.
passive-limit = יותר מדי פורטים פסיביים תפוסים מהכתובת שלך; נסה שוב כשהעברה תסתיים.
data-timeout = תם הזמן הקצוב לחיבור הנתונים.
pasv-needs-ipv4 = PASV פועל רק על גבי IPv4; יש להשתמש ב-EPSV.
epsv-all-only = אחרי EPSV ALL רק EPSV יכול להקים חיבורי נתונים.
epsv-all-ok = EPSV ALL התקבל.
no-such-file = אין קובץ או תיקייה כאלה.
not-a-file = זה אינו קובץ רגיל.
not-a-directory = זו אינה תיקייה.
permission-denied = ההרשאה נדחתה.
file-exists = הקובץ כבר קיים.
directory-not-empty = התיקייה אינה ריקה.
no-space = אין מספיק שטח אחסון.
local-error = שגיאה מקומית בעיבוד.
unknown-command = הפקודה אינה נתמכת.
syntax-error = שגיאת תחביר, הפקודה לא זוהתה.
argument-error = שגיאת תחביר בפרמטרים או בארגומנטים.
parameter-not-implemented = הפקודה אינה נתמכת עבור פרמטר זה.
protocol-not-supported = פרוטוקול הרשת אינו נתמך, יש להשתמש ב-(1,2)
line-too-long = שורת הפקודה ארוכה מדי.
idle-timeout = חלף זמן ללא פעילות, חיבור הבקרה נסגר.
shutting-down = השרת נכבה, חיבור הבקרה נסגר.
too-many-connections = יותר מדי חיבורים, נא לנסות שוב מאוחר יותר.
out-of-resources = המשאבים אזלו (קבצים פתוחים או זיכרון), חיבור הבקרה נסגר; נא לנסות שוב מאוחר יותר.
utf8-on = נתיבי UTF-8 מופעלים.
utf8-off = נתיבי UTF-8 מושבתים: נעשה שימוש בקידוד התווים הישן של הלקוח.
option-unknown = אפשרות לא מוכרת.
lang-ok = השפה הוגדרה: { $language }.
lang-default = השפה אופסה לברירת המחדל: { $language }.
lang-unsupported = השפה אינה נתמכת.
lang-malformed = תג השפה אינו תקין.
host-ok = המארח התקבל.
host-unknown = מארח לא ידוע.
host-after-login = יש לשלוח HOST לפני ההתחברות.
unique-name = ההעברה מתחילה; שם קובץ ייחודי:
name-untranslatable = לא ניתן לכתוב את השם בערכת התווים של תיקייה זו.
name-not-in-charset = לא ניתן לשמור את השם בערכת התווים של השרת ({ $charset }).
language-name = עברית

# FTPS (RFC 4217)
auth-ok = AUTH TLS התקבל: מתחיל את לחיצת היד של TLS.
auth-already = חיבור הבקרה כבר מוגן.
auth-unsupported = מנגנון האבטחה אינו נתמך; יש להשתמש ב-AUTH TLS.
prot-ok = רמת הגנת הנתונים הוגדרה ל-{ $level }.
prot-unsupported = רמת ההגנה אינה נתמכת; יש להשתמש ב-PROT C או ב-PROT P.
ccc-refused = החזרת ערוץ הפקודות למצב לא מוצפן אינה מותרת.
tls-required = נדרש TLS: יש לשלוח תחילה AUTH TLS.
prot-required = חיבורי הנתונים חייבים להיות מוגנים: יש לשלוח תחילה PROT P.
tls-reuse-required = נדרש שימוש חוזר בהפעלת TLS בחיבור הנתונים (לקוחות שאף פעם אינם מחדשים הפעלה זקוקים להגדרה tls_reuse_required = false בשרת).
tls-data-failed = המשא ומתן על TLS בחיבור הנתונים נכשל.
chmod-ok = הפקודה SITE CHMOD בוצעה.
bad-mode = שימוש: SITE CHMOD <הרשאות> <נתיב>, ההרשאות באוקטלי מ־0 עד 777.
site-help = פקודות SITE:
site-unknown = פקודת SITE לא מוכרת (SITE HELP מפרט אותן).
storage-unsupported = לא אפשרי באחסון הזה (באחסון אובייקטים אין הוספה, כתיבה ממיקום או הרשאות).
policy-denied = ההרשאה נדחתה: לחשבון זה אין כאן את ההרשאה "{ $perm }".
policy-denied-inside = ההרשאה נדחתה: לתיקייה הפנימית הזו אין את ההרשאה "{ $perm }", והיא הייתה זזה או נמחקת יחד איתה.
banned = יותר מדי ניסיונות כניסה כושלים מהכתובת שלך: נסו שוב מאוחר יותר.
user-sessions-limit = לחשבון זה פתוחים כבר כל החיבורים המותרים: יש לסגור אחד ולנסות שוב.
quota-exceeded = חריגה מהמכסה: העלאה זו תעבור את מגבלת החשבון; הקובץ נשאר כפי שהיה.
quota-entries = המכסה נוצלה: חשבון זה אינו יכול להחזיק קבצים או תיקיות נוספים.
quota-status = המכסה של חשבון זה:
quota-bytes = נפח: בשימוש { $used } מתוך { $limit }
quota-files = קבצים: { $used } מתוך { $limit }
quota-no-limit = ללא הגבלה
quota-none = לחשבון זה אין מכסה.
ended-by-admin = מנהל מערכת סיים את ההפעלה הזו.
web-bad-path = כתובת זו אינה נתיב בשרת זה.
web-bad-method = שיטה זו אינה נתמכת כאן.
web-csrf = פג תוקף הטופס או שהגיע מאתר אחר: טענו את הדף מחדש ונסו שוב.
web-bad-action = פעולה לא מוכרת.
web-bad-form = לא ניתן לקרוא את הטופס.
web-login-failed = הכניסה נכשלה: שם משתמש או סיסמה שגויים.
web-unavailable = השרת אינו יכול לענות כעת; נסו שוב מאוחר יותר.
web-not-found = אין קובץ או תיקייה כאלה.
web-denied = אין לך הרשאה לעשות זאת כאן.
web-denied-inside = אי אפשר לעשות זאת: התיקייה "{ $path }" שבתוכה אינה מתירה "{ $perm }".
web-exists = כבר קיים קובץ או תיקייה בשם זה.
web-not-empty = התיקייה אינה ריקה.
web-bad-name = לא ניתן להשתמש בשם זה כאן.
web-quota = חריגה ממכסה: העלאה זו תעבור את מגבלת החשבון; דבר לא נשמר.
web-full = האחסון מלא; דבר לא נשמר.
web-busy = לחשבון זה פתוחים כל ההפעלות המותרות: סגרו אחת ונסו שוב.
web-unsupported = האחסון אינו תומך בכך.
web-signed-in = מחובר בתור { $user }
web-logout = יציאה
web-login = כניסה
web-language = שפה
web-language-apply = החל
web-upload-label = העלאת קבצים:
web-upload = העלאה
web-mkdir-label = תיקייה חדשה:
web-mkdir = יצירה
web-paged = תיקייה זו גדולה: { $count } פריטים בכל עמוד, לפי סדר האחסון (עמוד { $page }); המיון חל בתוך העמוד.
web-copy-ftp = העתקת קישור FTP
web-copied = הועתק
web-col-name = שם
web-col-size = גודל
web-col-time = שונה
web-details = פרטים
web-empty = תיקייה זו ריקה.
web-page-prev = העמוד הקודם
web-page-next = העמוד הבא
web-link-web = קישור אינטרנט
web-link-ftp = קישור FTP
web-download = הורדה
web-rename-label = שם חדש:
web-rename = שינוי שם
web-delete = מחיקה
web-user = שם משתמש
web-password = סיסמה
web-stalled = ההעלאה הפסיקה להגיע; דבר לא נשמר.

# issue 45: server
reserved-name = השם הזה שמור לקובצי ההעלאה הזמניים של השרת (.babelftp-*.part); יש לבחור שם אחר.
web-reserved-name = השם הזה שמור לקובצי ההעלאה הזמניים של השרת (.babelftp-*.part); יש לבחור שם אחר.


# issue 48 (operate)
server-full = בשרת פתוחות כבר כל ההפעלות שהוא מתיר ({ $max }): נא לנסות שוב מאוחר יותר.
address-full = מהכתובת שלך פתוחות כבר כל ההפעלות שהשרת מתיר מכתובת אחת ({ $max }): סגרו אחת או נסו שוב מאוחר יותר.
# issue 48 (access)
web-drop-box = אפשר להניח כאן קבצים, אך לא לראות את תוכן התיקייה.
lang-account = השפה אופסה לשפת החשבון שלך: { $language }.
lang-default-until-login = השפה אופסה לברירת המחדל: { $language }; חשבון עם שפה משלו יקבל אותה בכניסה.
# issue 48 (ftps)
tls-reuse-required-account = נדרש שימוש חוזר בהפעלת TLS בחיבור הנתונים (לקוחות שאף פעם אינם מחדשים הפעלה זקוקים להגדרה tls_reuse_required = false בשרת או babelftp user set NAME --tls-reuse optional לחשבון שלהם).
# issue 49 (find)
web-find-label = חיפוש בתיקייה זו:
web-find = חיפוש
web-found = „{ $text }” ב־{ $path }: נמצאו { $count }
web-found-none = אין כאן או מתחת שם שמכיל „{ $text }”.
web-found-cut = החיפוש נעצר לפני סופו (לכל היותר { $results } תוצאות ו־{ $entries } פריטים שנבדקו): צמצמו אותו או חפשו בתיקייה עמוקה יותר.
web-found-back = חזרה לתיקייה
web-find-too-long = טקסט החיפוש ארוך מדי: לכל היותר { $max } בתים.
# issue 49 (page)
web-login-title = כניסה ל־{ $product }
# issue 49 (zip)
web-zip-download = הורדת הפריטים שנבחרו כקובץ zip
web-zip-select = בחירה
web-zip-none = יש לסמן לפחות פריט אחד להורדה כקובץ zip.
web-preview = תצוגה מקדימה
web-preview-charset = קידוד תווים: { $charset }
web-preview-cut = מוצגים רק { $size } הראשונים.

# issue 49 (upload)
web-skip = דלג לתוכן
web-col-actions = פעולות
web-size-exact = { $bytes } בתים
web-row-menu = פעולות עבור { $name }
web-uploads = העלאות
web-upload-waiting = ממתין
web-upload-sending = נשלח
web-upload-done = הושלם
web-upload-cancel = ביטול
web-upload-cancelled = בוטל
web-upload-failed = נכשל: החיבור נותק.
# issue 49 (share)
web-share-gone = קישור השיתוף הזה כבר לא עובד: פג תוקפו, נוצל עד הסוף או הוסר.
web-share-network = אי אפשר להשתמש בקישור השיתוף הזה מהרשת שלך.
web-share-unavailable = קישורי שיתוף דורשים חשבון במאגר החשבונות.
web-share-title = קישור שיתוף
web-share-expires = תוקף
web-share-never = ללא הגבלה
web-share-hour = שעה אחת
web-share-day = יום אחד
web-share-week = 7 ימים
web-share-month = 30 ימים
web-share-password = סיסמה (רשות)
web-share-max = מגבלת הורדות (רשות)
web-share-upload = קישור העלאה: אחרים מניחים קבצים בתיקייה הזו
web-share-create = יצירת קישור
web-share-created = קישור השיתוף { $id } נוצר. העתיקו אותו עכשיו: הוא מוצג פעם אחת בלבד.
web-share-locked = קישור השיתוף הזה דורש סיסמה
web-share-wrong = סיסמה שגויה.
web-share-open = פתיחה
