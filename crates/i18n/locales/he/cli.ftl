# הודעות שורת הפקודה של babelftp בעברית.
# שמות, כתובות URL, מספרים וקודי תשובה הם ארגומנטים ואינם מתורגמים לעולם.

cli-error = babelftp: שגיאה: { $error }
cli-bytes-to = { $bytes } בתים -> { $dest }
cli-mirror-summary = הועתקו: { $copied } ({ $bytes } בתים), ללא שינוי: { $unchanged }, נמחקו: { $deleted }
cli-serving = babelftp משרת את התיקייה { $root } בכתובת { $url }
cli-connect-hint = אפשר להתחבר בכל לקוח FTP בתור "anonymous" (קריאה בלבד), למשל: { $example }
cli-stopped = babelftp נעצר.
cli-connecting = מתחבר אל { $host }
cli-refused = השרת סירב: { $reply }
cli-url-names-no-file = כתובת ה-URL אינה מציינת קובץ
cli-bad-url = כתובת URL לא תקינה { $url }
cli-unknown-charset = ערכת תווים לא מוכרת { $charset }
cli-charset-guessed = ערכת תווים: { $charset } (נוחשה מתוך { $count } שמות)
cli-charset-remembered = ערכת תווים: { $charset } (נשמרה עבור שרת זה)
cli-charset-explicit = ערכת תווים: { $charset } (מתוך --charset)
cli-unknown-command = פקודה לא מוכרת { $command } (אפשר לנסות help)
cli-needs-argument = הפקודה { $command } דורשת ארגומנט
cli-creating = יוצר את { $path }
cli-opening = פותח את { $path }
cli-insecure = אזהרה: --insecure: תעודת השרת אינה נבדקת; כל אחד בנתיב הרשת יכול להתחזות ל־{ $host } ולקרוא או לשנות את ההפעלה הזו, כולל סיסמאות וקבצים
cli-access-anonymous-off = גישה: כניסות אנונימיות נדחות
cli-access-anonymous-read = גישה: אנונימית, לקריאה בלבד, לכל השורש
cli-access-anonymous-write = גישה: אנונימית, לקריאה ולכתיבה, לכל השורש
cli-access-user-write = גישה: משתמש { $name }, לקריאה ולכתיבה, ב־{ $home }
cli-access-user-read = גישה: משתמש { $name }, לקריאה בלבד, ב־{ $home }
cli-root-missing = תיקיית השורש { $path } אינה קיימת (רק ftp-root, ברירת המחדל, נוצרת; צרו אותה או תקנו את --root)
cli-bad-listen = --listen { $value }: { $error } (כתבו כתובת:פורט, מארח:פורט או פורט)
cli-starting = הפעלת השרת
cli-nofile-raised = קבצים פתוחים: המגבלה הועלתה מ־{ $from } ל־{ $to }
cli-nofile-capped = אזהרה: הקבצים הפתוחים מוגבלים ל־{ $limit }: כ־{ $sessions } הפעלות בו־זמנית, לא { $max } של --max-connections; יש להעלות את המגבלה הקשיחה (ulimit -Hn, או LimitNOFILE= ביחידת systemd)
cli-x3-password-prompt = הסיסמה של { $user } ב־{ $host }:
cli-x3-password-unread = בקריאת הסיסמה
cli-x3-passwd-new = סיסמה חדשה:
cli-x3-passwd-again = אותה סיסמה שוב:
cli-x3-passwd-mismatch = שתי הסיסמאות שונות; דבר לא הודפס
cli-x3-passwd-empty = סיסמה ריקה
cli-x3-interrupted = { $command }: הופסק
cli-x3-reconnecting = החיבור לא חזר לסנכרון; מתחבר מחדש
cli-x3-mv-usage = mv צריך שני שמות: mv ישן חדש
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = תיקייה מקומית: { $path }
cli-x3-local-command-failed = בהרצת הפקודה המקומית
cli-x3-password-no-terminal = אין מסוף כדי לבקש את הסיסמה של { $user } ב־{ $host }: נשלחת סיסמה ריקה (אפשר לתת אותה עם -u { $user }:PASSWORD או ב־~/.netrc)
