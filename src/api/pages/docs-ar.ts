/**
 * The docs page's summary in Arabic (#arabic-summary): what the API gives, the first request, the
 * three things to know, and in a few lines how the numbers are made, with links to the Arabic pages.
 * The code stays code, laid out left to right inside the right-to-left section.
 */
import type { RenderContext } from "../../feed/site.js";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../../core/limits.js";
import { LOOKBACK_DAYS, MIN_PRIOR_DAYS } from "../../core/methodology.js";
import { FEED_PATH, TERMS_PATH, localized } from "../../feed/paths.js";
import { esc } from "./html.js";
import { count } from "./format.js";

export function arabicSummary(ctx: RenderContext, base: string): string {
  const first = ctx.feed.assets.find((a) => a.market === "competitive") ?? ctx.feed.assets[0]!;
  const n = (x: number) => count(x, "ar");
  return `<section id="arabic-summary" lang="ar" dir="rtl" aria-labelledby="arabic-summary-h">
<h2 id="arabic-summary-h">ملخص بالعربية</h2>
<p>واجهة برمجية مجانية للقراءة فقط، بصيغة JSON، لأسعار العملات والذهب لدى البنوك وشركات الصرافة وتجار الذهب المرخصين في مصر. طلب واحد يعطيك لكل أصل: أفضل سعر في كل جانب ومن يقدمه، ووصف اليوم مقارنةً بالأيام السابقة، والسعر الرسمي للبنك المركزي، والسعر العالمي، وتاريخ آخر ${n(ctx.feed.seriesWindowDays)} يوم تداول، وجدول أسعار كل الجهات. بلا مفتاح ولا تسجيل، ويمكن طلبها من المتصفح مباشرة.</p>
<h3 id="arabic-start">أول طلب</h3>
<pre class="cmd" dir="ltr"><code>curl -s '${esc(`${base}${FEED_PATH}?asset=${first.slug}`)}'</code></pre>
<h3 id="arabic-three-things">ثلاثة أشياء يجب معرفتها</h3>
<ol>
<li><strong>التصفية</strong>: <code>?asset=</code> لأصل أو أكثر (بالاسم المختصر أو المعرّف، مفصولة بفواصل)، و<wbr><code>?category=</code> لفئة. قيمة غير معروفة تعطي خطأ 400 مع القيم المقبولة.</li>
<li><strong>الطلب المشروط</strong>: احتفظ بقيمة <code>ETag</code> وأرسلها في <code>If-None-Match</code>؛ إن لم يتغير شيء فالرد <code>304</code> بلا محتوى. تتغير البيانات مرة في الساعة على الأكثر، فيكفي الطلب كل خمس دقائق.</li>
<li><strong>الحدود</strong>: ${n(WINDOW_LIMIT)} طلبًا كل ${n(WINDOW_SECONDS)} ثانية و${n(DAILY_LIMIT)} طلب في يوم القاهرة لكل عنوان؛ بعدها رد 429 مع <code>Retry-After</code>.</li>
</ol>
<h3 id="arabic-numbers">كيف تُحسب الأرقام</h3>
<ul>
<li><code>sell</code> هو ما يدفعه العميل للجهة (الأقل أفضل)، و<wbr><code>buy</code> ما تدفعه الجهة للعميل (الأعلى أفضل). كل الأسعار بالجنيه المصري للوحدة (للجرام في الذهب)، مقرّبة إلى منازل الأصل العشرية.</li>
<li>لا تُقبل إلا أسعار الجهات المرخصة، ويُستبعد السعر المتقاطع أو البعيد عن أسعار الجهات الأخرى بأكثر من 10٪.</li>
<li>الوصف (<code>verdict</code>) يضع أفضل سعر اليوم بين أفضل أسعار آخر ${n(LOOKBACK_DAYS)} يوم تداول (<code>favorability</code>)؛ بأقل من ${n(MIN_PRIOR_DAYS)} أيام تداول سابقة يكون <code>calibrating</code>. هو وصف للماضي وليس توقعًا ولا نصيحة.</li>
<li><code>freshness</code> يقول هل السعر حديث أم السوق مغلق أم متأخر، و<wbr><code>confidence</code> كم مصدرًا مستقلًا رصد الأصل.</li>
</ul>
<p>الصفحات العربية: <a href="${localized("/", "ar")}">الأسعار</a> · <a href="${localized(TERMS_PATH, "ar")}">الشروط</a>. القواعد كاملة بالإنجليزية في <a href="#methodology" lang="en">How the numbers are made</a>.</p>
</section>`;
}
