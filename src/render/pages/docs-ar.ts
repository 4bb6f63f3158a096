/**
 * The docs page in Arabic (/ar/docs/): what the API gives, the first request, the three things to
 * know, how the numbers are made in a few lines, and the glossary of the pages' words; the full
 * reference stays in English on /docs/. Code stays code: every <pre> and <code> is set left to right
 * inside the right-to-left page (dir="ltr" on the blocks, `direction:ltr` on inline code in style.ts),
 * so that `?asset=` never renders as `=asset?`.
 */
import type { RenderContext } from "../../feed/site.js";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../../core/limits.js";
import { LOOKBACK_DAYS, MIN_PRIOR_DAYS } from "../../core/methodology.js";
import { DOCS_PATH, FEED_PATH, TERMS_PATH, files, localized, urlOf } from "../../feed/paths.js";
import { html, type SafeHtml } from "./html.js";
import { page } from "./page.js";
import { count } from "./format.js";
import { baseUrlOf, exampleAsset } from "./docs.js";
import { glossary } from "./glossary.js";
import { simulatedBanner } from "./words.js";

export function renderArabicDocs(ctx: RenderContext): string {
  const ds = ctx.input.dataset;
  return page({
    lang: "ar",
    path: DOCS_PATH,
    title: "التوثيق · واجهة Price Feed البرمجية",
    description: "كيف تستخدم واجهة Price Feed البرمجية في دقيقة، وكيف تُحسب أرقامها.",
    body: arabicDocs(ctx, baseUrlOf(ds.site)),
    scrolls: true,
    baseUrl: ds.site.baseUrl,
    ...simulatedBanner(ds.site, "ar"),
  });
}

function arabicDocs(ctx: RenderContext, base: string): SafeHtml {
  const first = exampleAsset(ctx.feed);
  const n = (x: number) => count(x, "ar");
  const url = `${base}${FEED_PATH}?asset=${first.slug}`;
  return html`<h1>التوثيق بالعربية</h1>
<p>واجهة برمجية مجانية للقراءة فقط، بصيغة JSON، لأسعار العملات والذهب لدى البنوك وشركات الصرافة وتجار الذهب المرخصين في مصر. طلب واحد يعطيك لكل أصل: أفضل سعر في كل جانب ومن يقدمه، ووصف اليوم مقارنةً بالأيام السابقة، والسعر الرسمي للبنك المركزي، والسعر العالمي، وتاريخ آخر ${n(ctx.feed.seriesWindowDays)} يوم تداول، وجدول أسعار كل الجهات. بلا مفتاح ولا تسجيل، ويمكن طلبها من المتصفح مباشرة.</p>
<h2 id="arabic-start">أول طلب</h2>
<pre class="cmd" dir="ltr"><code>curl -s '${url}'</code></pre>
<p>أو من JavaScript:</p>
<pre dir="ltr"><code>const res = await fetch("${url}");
const { assets: [asset] } = await res.json();
console.log(asset.directions.sell.best);</code></pre>
<h2 id="arabic-three-things">ثلاثة أشياء يجب معرفتها</h2>
<ol>
<li><strong>التصفية</strong>: <code>?asset=</code> لأصل أو أكثر (بالاسم المختصر أو المعرّف، مفصولة بفواصل)، و<wbr><code>?category=</code> لفئة. قيمة غير معروفة تعطي خطأ 400 مع القيم المقبولة.</li>
<li><strong>الطلب المشروط</strong>: احتفظ بقيمة <code>ETag</code> وأرسلها في <code>If-None-Match</code>؛ إن لم يتغير شيء فالرد <code>304</code> بلا محتوى. تتغير البيانات مرة في الساعة على الأكثر، فيكفي الطلب كل خمس دقائق.</li>
<li><strong>الحدود</strong>: ${n(WINDOW_LIMIT)} طلبًا كل ${n(WINDOW_SECONDS)} ثانية و${n(DAILY_LIMIT)} طلب في يوم القاهرة لكل عنوان؛ بعدها رد 429 مع <code>Retry-After</code>.</li>
</ol>
<h2 id="arabic-numbers">كيف تُحسب الأرقام</h2>
<ul>
<li><code>sell</code> هو ما يدفعه العميل للجهة (الأقل أفضل، وتسميه الصفحات «تشتري بـ»)، و<wbr><code>buy</code> ما تدفعه الجهة للعميل (الأعلى أفضل، «تبيع بـ»). كل الأسعار بالجنيه المصري للوحدة (للجرام في الذهب)، مقرّبة إلى منازل الأصل العشرية.</li>
<li>لا تُقبل إلا أسعار الجهات المرخصة، ويُستبعد السعر المتقاطع أو البعيد عن أسعار الجهات الأخرى بأكثر من 10٪.</li>
<li>الوصف (<code>verdict</code>) يضع أفضل سعر اليوم بين أفضل أسعار آخر ${n(LOOKBACK_DAYS)} يوم تداول (<code>favorability</code>)؛ بأقل من ${n(MIN_PRIOR_DAYS)} أيام تداول سابقة يكون <code>calibrating</code>. هو وصف للماضي وليس توقعًا ولا نصيحة.</li>
<li><code>freshness</code> يقول هل السعر حديث أم السوق مغلق أم متأخر، و<wbr><code>confidence</code> كم مصدرًا مستقلًا رصد الأصل.</li>
<li>الأرشيف: كل يوم منذ بداية البيانات لكل أصل في <a href="${urlOf(files.history(first.slug))}"><code>${urlOf(files.history(first.slug))}</code></a> وبصيغة CSV.</li>
</ul>
<h2 id="glossary">كلمات الصفحات</h2>
<p>تسمّي الصفحات كل جانب من جهة العميل، ولا تستعمل كلمتي البنوك «سعر الشراء» و«سعر البيع» اللتين تسمّيان الجانب من جهة البنك. كل تسمية والحقل الذي يقابلها:</p>
${glossary("ar")}
<p>الصفحات العربية: <a href="${localized("/", "ar")}">الأسعار</a> · <a href="${localized(TERMS_PATH, "ar")}">الشروط</a>. المرجع الكامل والقواعد بالإنجليزية في <a href="${DOCS_PATH}" hreflang="en" lang="en">the documentation</a>.</p>`;
}
