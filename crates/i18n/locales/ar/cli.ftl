# رسائل سطر أوامر babelftp باللغة العربية.
# الأسماء وعناوين URL والأرقام ورموز الردود وسائطُ لا تُترجم أبدًا.

cli-error = babelftp: خطأ: { $error }
cli-bytes-to = { $bytes } بايت -> { $dest }
cli-mirror-summary = نُسخ { $copied } ({ $bytes } بايت)، وبقي { $unchanged } دون تغيير، وحُذف { $deleted }
cli-serving = يقدّم babelftp الدليل { $root } على { $url }
cli-connect-hint = اتصل باستخدام أي عميل FTP باسم "anonymous" (قراءة فقط)، مثلًا: { $example }
cli-stopped = توقف babelftp.
cli-connecting = جارٍ الاتصال بـ { $host }
cli-refused = رفض الخادم: { $reply }
cli-url-names-no-file = لا يحدد عنوان URL أي ملف
cli-bad-url = عنوان URL غير صالح { $url }
cli-unknown-charset = مجموعة محارف غير معروفة { $charset }
cli-charset-guessed = مجموعة المحارف: { $charset } (مستنتجة من الأسماء، وعددها { $count })
cli-charset-remembered = مجموعة المحارف: { $charset } (محفوظة لهذا الخادم)
cli-charset-explicit = مجموعة المحارف: { $charset } (من --charset)
cli-unknown-command = أمر غير معروف { $command } (جرّب help)
cli-needs-argument = يحتاج الأمر { $command } إلى وسيط
cli-creating = جارٍ إنشاء { $path }
cli-opening = جارٍ فتح { $path }
cli-insecure = تحذير: --insecure: لا يُتحقق من شهادة الخادم؛ يمكن لأي شخص على مسار الشبكة انتحال صفة { $host } وقراءة هذه الجلسة أو تغييرها، بما في ذلك كلمات المرور والملفات
cli-access-anonymous-off = الوصول: تسجيلات الدخول المجهولة مرفوضة
cli-access-anonymous-read = الوصول: مجهول، للقراءة فقط، على الجذر كله
cli-access-anonymous-write = الوصول: مجهول، للقراءة والكتابة، على الجذر كله
cli-access-user-write = الوصول: المستخدم { $name }، للقراءة والكتابة، في { $home }
cli-access-user-read = الوصول: المستخدم { $name }، للقراءة فقط، في { $home }
cli-root-missing = المجلد الجذر { $path } غير موجود (لا يُنشأ إلا ftp-root الافتراضي؛ أنشئه أو صحّح --root)
cli-bad-listen = --listen { $value }: { $error } (اكتب العنوان:المنفذ أو المضيف:المنفذ أو منفذًا)
cli-starting = تشغيل الخادم
cli-nofile-raised = الملفات المفتوحة: رُفع الحد من { $from } إلى { $to }
cli-nofile-capped = تحذير: الملفات المفتوحة محدودة بـ { $limit }: نحو { $sessions } جلسة في وقت واحد، لا { $max } المحددة في --max-connections؛ ارفع الحد الصارم (ulimit -Hn، أو LimitNOFILE= في وحدة systemd)
cli-x3-password-prompt = كلمة مرور { $user } على { $host }:
cli-x3-password-unread = أثناء قراءة كلمة المرور
cli-x3-passwd-new = كلمة المرور الجديدة:
cli-x3-passwd-again = كلمة المرور نفسها مرة أخرى:
cli-x3-passwd-mismatch = كلمتا المرور مختلفتان؛ لم يُطبع شيء
cli-x3-passwd-empty = كلمة مرور فارغة
cli-x3-interrupted = { $command }: أُوقف
cli-x3-reconnecting = لم يعد الاتصال متزامنًا؛ جارٍ الاتصال من جديد
cli-x3-mv-usage = يحتاج mv إلى اسمين: mv القديم الجديد
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = الدليل المحلي: { $path }
cli-x3-local-command-failed = أثناء تشغيل الأمر المحلي
cli-x3-password-no-terminal = لا توجد طرفية لطلب كلمة مرور { $user } على { $host }: تُرسل كلمة مرور فارغة (أعطها عبر -u { $user }:PASSWORD أو في ~/.netrc)
