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
cli-names-guessed = ملاحظة: { $count } من الأسماء ليست UTF-8 وتُعرض بالترميز { $charsets } تخمينًا؛ --charset { $charset } يثبّته، و--raw يعرض البايتات
cli-users-reloaded = أُعيد تحميل المستخدمين: { $count } مستخدمًا مسمّى (تستمر الجلسات التي سجّلت دخولها)
cli-users-reload-failed = لم يُعَد تحميل المستخدمين، وتبقى القائمة السابقة: { $error }
cli-x2-bad-password = كلمة المرور في عنوان URL غير مكتوبة بشكل صحيح: رمّز فيها / : @ # % والمسافات بترميز النسبة المئوية (%2F %3A %40 %23 %25 %20)
cli-x2-mv-other-server = { $to } ليس على خادم { $from }: لا يمكن لإعادة التسمية نقل ملف إلى خادم آخر (نزّله بـ get ثم ارفعه بـ put)
cli-x2-mirror-failed = فشل: { $path }: { $error }
cli-x2-mirror-failures = النسخ المطابق غير مكتمل: فشل { $count } (كلٌّ مذكور أعلاه)؛ شغّله مرة أخرى لإعادة المحاولة واستئناف التنزيلات الجزئية
cli-x2-reconnecting = انقطع الاتصال؛ جارٍ الاتصال من جديد
cli-x2-check-dropped = { $what }: قطع الخادم الاتصال (تستمر الفحوص عبر اتصال جديد)
cli-x2-check-cleanup-failed = تعذّر حذف دليل العمل المؤقت { $path }: { $error }
cli-metrics-serving = المقاييس: http://{ $addr }/metrics، الصحة: http://{ $addr }/health
