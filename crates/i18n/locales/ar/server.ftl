# نصوص ردود خادم babelftp، العربية (ترجمة للفهرس الإنجليزي المصدر).
# رموز الردود وأسماء ميزات FEAT والمسارات ليست جزءًا من هذه النصوص أبدًا.
# قد يسبق النصَّ في الرد مسارٌ بين علامتي اقتباس (ردود 257)؛
# وقد كُتب "path-is-current" و"path-created" ليأتيا بعده.

greeting = خادم babelftp جاهز.
goodbye = وداعًا.
command-ok = تم تنفيذ الأمر بنجاح.
need-password = اسم المستخدم مقبول، يلزم إدخال كلمة المرور.
logged-in = تم تسجيل الدخول، يمكنك المتابعة.
logged-in-anonymous = تم منح الوصول المجهول، للقراءة فقط.
login-failed = بيانات تسجيل الدخول غير صحيحة.
home-unavailable = رُفض تسجيل الدخول: الدليل المنزلي لهذا الحساب غير متاح؛ راجع المسؤول.
not-logged-in = يُرجى تسجيل الدخول أولًا باستخدام USER و PASS.
already-logged-in = تم تسجيل الدخول مسبقًا.
account-not-needed = لا يلزم حساب على هذا الخادم.
bad-sequence = تسلسل أوامر غير صحيح.
cwd-ok = تم تغيير الدليل.
path-is-current = هو الدليل الحالي.
path-created = تم إنشاؤه.
directory-removed = تم حذف الدليل.
file-deleted = تم حذف الملف.
rename-pending = الملف موجود، في انتظار الاسم الجديد.
renamed = تمت إعادة التسمية بنجاح.
restart-pending = الاستئناف من الموضع { $offset }. أرسل STOR أو RETR لبدء النقل.
type-set = تم ضبط النوع على { $type }.
stru-ok = تم ضبط البنية على F.
mode-ok = تم ضبط الوضع على S.
superfluous = الأمر غير ضروري هنا.
system-type = UNIX Type: L8
features = الميزات:
end = النهاية
help-intro = الأوامر التالية مدعومة:
help-end = نهاية المساعدة.
status-intro = الحالة:
status-end = نهاية الحالة.
passive = الدخول إلى الوضع السلبي
extended-passive = الدخول إلى الوضع السلبي الموسع
port-ok = تم قبول عنوان اتصال البيانات النشط.
port-refused = مرفوض: يجب أن يكون عنوان البيانات عنوانك أنت، وعلى منفذ رقمه 1024 أو أعلى.
opening-data = جارٍ فتح اتصال البيانات.
transfer-complete = اكتمل النقل.
transfer-aborted = أُغلق الاتصال؛ تم إلغاء النقل.
abort-ok = تم الإلغاء بنجاح.
no-transfer = لا يوجد نقل لإلغائه.
cant-open-data = تعذر فتح اتصال البيانات.
passive-limit = عدد كبير جدًا من المنافذ السلبية محجوز من عنوانك؛ حاول مرة أخرى عند انتهاء نقل.
data-timeout = انتهت مهلة اتصال البيانات.
pasv-needs-ipv4 = يعمل PASV عبر IPv4 فقط؛ استخدم EPSV.
epsv-all-only = بعد EPSV ALL لا يمكن إنشاء اتصالات البيانات إلا عبر EPSV.
epsv-all-ok = تم قبول EPSV ALL.
no-such-file = لا يوجد ملف أو دليل بهذا الاسم.
not-a-file = ليس ملفًا عاديًا.
not-a-directory = ليس دليلًا.
permission-denied = الإذن مرفوض.
file-exists = الملف موجود بالفعل.
directory-not-empty = الدليل غير فارغ.
no-space = مساحة التخزين غير كافية.
local-error = خطأ محلي أثناء المعالجة.
unknown-command = الأمر غير مدعوم.
syntax-error = خطأ في الصيغة، الأمر غير معروف.
argument-error = خطأ في صيغة المعاملات أو الوسائط.
parameter-not-implemented = الأمر غير مدعوم مع هذا المعامل.
protocol-not-supported = بروتوكول الشبكة غير مدعوم، استخدم (1,2)
line-too-long = سطر الأمر طويل جدًا.
idle-timeout = انتهت مهلة الخمول، جارٍ إغلاق اتصال التحكم.
shutting-down = جارٍ إيقاف تشغيل الخادم وإغلاق اتصال التحكم.
too-many-connections = عدد الاتصالات كبير جدًا، حاول مرة أخرى لاحقًا.
out-of-resources = نفدت الموارد (الملفات المفتوحة أو الذاكرة)، يُغلق اتصال التحكم؛ حاول مرة أخرى لاحقًا.
utf8-on = تم تفعيل مسارات UTF-8.
utf8-off = تم تعطيل مسارات UTF-8: يُستخدم ترميز العميل القديم.
option-unknown = خيار غير معروف.
lang-ok = تم ضبط اللغة على { $language }.
lang-default = تمت إعادة اللغة إلى الافتراضية: { $language }.
lang-unsupported = اللغة غير مدعومة.
lang-malformed = صيغة وسم اللغة غير صحيحة.
host-ok = تم قبول المضيف.
host-unknown = مضيف غير معروف.
host-after-login = يجب إرسال HOST قبل تسجيل الدخول.
unique-name = بدء النقل؛ اسم الملف الفريد:
name-untranslatable = لا يمكن كتابة الاسم بمجموعة محارف هذا الدليل.
name-not-in-charset = لا يمكن تخزين الاسم بمجموعة محارف الخادم ({ $charset }).
language-name = العربية

# FTPS (RFC 4217)
auth-ok = تم قبول AUTH TLS: جارٍ بدء مصافحة TLS.
auth-already = اتصال التحكم محمي بالفعل.
auth-unsupported = آلية الأمان غير مدعومة؛ استخدم AUTH TLS.
prot-ok = تم ضبط مستوى حماية البيانات على { $level }.
prot-unsupported = مستوى الحماية غير مدعوم؛ استخدم PROT C أو PROT P.
ccc-refused = لا يُسمح بإعادة قناة الأوامر إلى النص غير المشفر.
tls-required = يلزم استخدام TLS: أرسل AUTH TLS أولًا.
prot-required = يجب حماية اتصالات البيانات: أرسل PROT P أولًا.
tls-reuse-required = يلزم إعادة استخدام جلسة TLS على اتصال البيانات (العملاء الذين لا يستأنفون الجلسات أبدًا يحتاجون إلى الإعداد tls_reuse_required = false على الخادم).
tls-data-failed = فشل التفاوض على TLS في اتصال البيانات.
chmod-ok = نُفذ الأمر SITE CHMOD بنجاح.
bad-mode = الاستخدام: SITE CHMOD <الوضع> <المسار>، والوضع بالنظام الثماني من 0 إلى 777.
site-help = أوامر SITE:
site-unknown = أمر SITE غير معروف (يسردها SITE HELP).
storage-unsupported = غير ممكن على هذا التخزين (تخزين الكائنات لا يدعم الإلحاق ولا الكتابة من موضع ولا الأذونات).
policy-denied = الإذن مرفوض: هذا الحساب لا يملك الحق «{ $perm }» هنا.
policy-denied-inside = الإذن مرفوض: هذا المجلد الداخلي لا يملك الحق «{ $perm }»، وكان سينتقل أو يُحذف معه.
banned = محاولات دخول فاشلة كثيرة من عنوانك: حاول مرة أخرى لاحقًا.
user-sessions-limit = لهذا الحساب أقصى عدد مسموح من الجلسات المفتوحة: أغلق واحدة وحاول مجددًا.
quota-exceeded = تم تجاوز الحصة: هذا الرفع سيتجاوز حد الحساب؛ بقي الملف كما كان.
quota-entries = تم تجاوز الحصة: لا يمكن لهذا الحساب الاحتفاظ بمزيد من الملفات أو المجلدات.
quota-status = حصة هذا الحساب:
quota-bytes = المساحة: استُخدم { $used } من { $limit }
quota-files = الملفات: { $used } من { $limit }
quota-no-limit = بلا حد
quota-none = لا حصة لهذا الحساب.
ended-by-admin = أنهى مسؤول هذه الجلسة.
web-bad-path = هذا العنوان ليس مسارًا على هذا الخادم.
web-bad-method = هذه الطريقة غير مدعومة هنا.
web-csrf = انتهت صلاحية النموذج أو جاء من موقع آخر: أعد تحميل الصفحة وحاول مجددًا.
web-bad-action = إجراء غير معروف.
web-bad-form = تعذرت قراءة النموذج.
web-login-failed = فشل تسجيل الدخول: اسم المستخدم أو كلمة المرور غير صحيحة.
web-unavailable = لا يستطيع الخادم الرد الآن؛ حاول لاحقًا.
web-not-found = لا يوجد ملف أو مجلد بهذا الاسم.
web-denied = ليست لديك صلاحية فعل ذلك هنا.
web-denied-inside = لا يمكنك فعل ذلك: المجلد «{ $path }» الموجود بداخله لا يسمح بـ«{ $perm }».
web-exists = يوجد ملف أو مجلد بهذا الاسم بالفعل.
web-not-empty = المجلد ليس فارغًا.
web-bad-name = لا يمكن استخدام هذا الاسم هنا.
web-quota = تم تجاوز الحصة: هذا الرفع سيتجاوز حد الحساب؛ لم يُحتفظ بشيء.
web-full = التخزين ممتلئ؛ لم يُحتفظ بشيء.
web-busy = لهذا الحساب أقصى عدد من الجلسات المفتوحة: أغلق واحدة وحاول مجددًا.
web-unsupported = التخزين لا يدعم هذا.
web-signed-in = تم الدخول باسم { $user }
web-logout = تسجيل الخروج
web-login = تسجيل الدخول
web-language = اللغة
web-language-apply = تطبيق
web-upload-label = رفع ملفات:
web-upload = رفع
web-mkdir-label = مجلد جديد:
web-mkdir = إنشاء
web-paged = هذا المجلد كبير: { $count } عنصر في كل صفحة، بترتيب التخزين (الصفحة { $page })؛ الفرز يتم داخل الصفحة.
web-copy-ftp = نسخ رابط FTP
web-copied = تم النسخ
web-col-name = الاسم
web-col-size = الحجم
web-col-time = آخر تعديل
web-details = تفاصيل
web-empty = هذا المجلد فارغ.
web-page-prev = الصفحة السابقة
web-page-next = الصفحة التالية
web-link-web = رابط الويب
web-link-ftp = رابط FTP
web-download = تنزيل
web-rename-label = الاسم الجديد:
web-rename = إعادة التسمية
web-delete = حذف
web-user = اسم المستخدم
web-password = كلمة المرور
web-stalled = توقف وصول الرفع؛ لم يُحفظ شيء.

# issue 45: server
reserved-name = هذا الاسم محجوز لملفات الرفع المؤقتة الخاصة بالخادم (.babelftp-*.part)؛ اختر اسمًا آخر.
web-reserved-name = هذا الاسم محجوز لملفات الرفع المؤقتة الخاصة بالخادم (.babelftp-*.part)؛ اختر اسمًا آخر.


# issue 48 (operate)
server-full = لدى الخادم أقصى عدد يسمح به من الجلسات المفتوحة ({ $max }): حاول مرة أخرى لاحقًا.
address-full = لدى عنوانك أقصى عدد يسمح به هذا الخادم من الجلسات لعنوان واحد ({ $max }): أغلق واحدة أو حاول مرة أخرى لاحقًا.
# issue 48 (access)
web-drop-box = يمكنك وضع الملفات هنا، لكن لا يمكنك رؤية محتوى هذا المجلد.
lang-account = تمت إعادة اللغة إلى لغة حسابك: { $language }.
lang-default-until-login = تمت إعادة اللغة إلى الافتراضية: { $language }؛ الحساب الذي له لغته الخاصة يحصل عليها عند تسجيل الدخول.
# issue 48 (ftps)
tls-reuse-required-account = يلزم إعادة استخدام جلسة TLS على اتصال البيانات (العملاء الذين لا يستأنفون الجلسات أبدًا يحتاجون إلى الإعداد tls_reuse_required = false على الخادم أو babelftp user set NAME --tls-reuse optional لحسابهم).
# issue 49 (find)
web-find-label = البحث في هذا المجلد:
web-find = بحث
web-found = «{ $text }» في { $path }: { $count } نتيجة
web-found-none = لا يحتوي أي اسم هنا أو في ما تحته على «{ $text }».
web-found-cut = توقف البحث قبل اكتماله (بحد أقصى { $results } نتيجة و{ $entries } عنصرًا مفحوصًا): ضيّق البحث أو ابحث في مجلد أعمق.
web-found-back = العودة إلى المجلد
web-find-too-long = نص البحث طويل جدًا: { $max } بايت على الأكثر.
# issue 49 (page)
web-login-title = تسجيل الدخول إلى { $product }
# issue 49 (zip)
web-zip-download = تنزيل المحدد كملف zip
web-zip-select = تحديد
web-zip-none = حدّد عنصرًا واحدًا على الأقل لتنزيله كملف zip.
web-preview = معاينة
web-preview-charset = مجموعة المحارف: { $charset }
web-preview-cut = تُعرض أول { $size } فقط.

# issue 49 (upload)
web-skip = انتقل إلى المحتوى
web-col-actions = إجراءات
web-size-exact = { $bytes } بايت
web-row-menu = إجراءات لـ { $name }
web-uploads = عمليات الرفع
web-upload-waiting = في الانتظار
web-upload-sending = جارٍ الإرسال
web-upload-done = تم
web-upload-cancel = إلغاء
web-upload-cancelled = أُلغي
web-upload-failed = فشل: انقطع الاتصال.
# issue 49 (share)
web-share-gone = رابط المشاركة هذا لم يعد يعمل: انتهت صلاحيته أو استُنفد أو أُزيل.
web-share-network = لا يمكن استخدام رابط المشاركة هذا من شبكتك.
web-share-unavailable = تحتاج روابط المشاركة إلى حساب في مخزن الحسابات.
web-share-title = رابط مشاركة
web-share-expires = تنتهي الصلاحية بعد
web-share-never = أبدًا
web-share-hour = ساعة واحدة
web-share-day = يوم واحد
web-share-week = 7 أيام
web-share-month = 30 يومًا
web-share-password = كلمة المرور (اختيارية)
web-share-max = حد التنزيلات (اختياري)
web-share-upload = رابط رفع: يضع الآخرون ملفات في هذا المجلد
web-share-create = إنشاء الرابط
web-share-created = أُنشئ رابط المشاركة { $id }. انسخه الآن: لا يظهر إلا مرة واحدة.
web-share-locked = يحتاج رابط المشاركة هذا إلى كلمة مرور
web-share-wrong = كلمة مرور خاطئة.
web-share-open = فتح
