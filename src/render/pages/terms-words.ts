/**
 * The terms page (terms.ts) in English and in Arabic, each a document of its own: for translators,
 * edit the words here; terms.ts gives them what they quote (the feed's disclaimer and licence, the
 * list of sources). Written as markup (html`…`): the text is written as it is, the values in ${…}
 * escaped; the English disclaimer and licence on the Arabic page are marked as English.
 */
import { DOCS_PATH, FEED_PATH } from "../../feed/paths.js";
import { DAILY_LIMIT, WINDOW_LIMIT, WINDOW_SECONDS } from "../../core/limits.js";
import { html, type SafeHtml } from "./html.js";
import { count } from "./format.js";
import { wordTable } from "./word-table.js";

/** What the terms quote: the feed's own disclaimer and licence, whether the data is simulated, the sources read. */
export interface TermsParts {
  disclaimer: string;
  license: string;
  simulated: boolean;
  sources: SafeHtml;
}

export const TERMS_WORDS = wordTable({
  en: {
    title: "Terms of use · Price Feed",
    description: "Information only, not financial advice; licence, attribution and contact.",
    body: (t: TermsParts) => html`<h1>Terms of use</h1>
<h2 id="information-only">Information only</h2>
<p>${t.disclaimer}</p>
<p>Everything here is information only, not financial advice. The prices are indicative: they are what licensed banks, exchange houses and gold dealers published or were seen to quote, collected at most about once an hour. A seller may deal at a different price, and a price may have changed since it was observed. Check with the seller before you deal. The verdict compares today's best price with the recent past; it is a description, not a forecast and not a recommendation to buy, sell or wait.</p>
<p>The service is provided as is, without warranty of any kind, and may change or stop. Only licensed sellers are listed; being listed is not an endorsement.</p>
<h2 id="licence">Licence of the data</h2>
<p>${t.license}</p>
<p>You may copy, redistribute and build on the data, commercially or not, provided you credit “Price Feed” with a link to this site and keep the attributions below.</p>
<h2 id="attribution">Attribution</h2>
<p>Official exchange rates are those of the <strong>Central Bank of Egypt</strong>, which asks to be cited as the source wherever its rates are redistributed: “Source: Central Bank of Egypt”. They appear in the feed as <code>benchmark</code> and in each series as <code>bench</code>.${t.simulated ? html` In this simulated sample they are generated and only stand in for the bank's rates.` : ""}</p>
<p>The sources this deployment reads:</p>
${t.sources}
<h2 id="fair-use">Fair use and limits</h2>
<p>No key and no sign-up. Each address may make ${WINDOW_LIMIT} requests per ${WINDOW_SECONDS} seconds and about ${DAILY_LIMIT} per day (the day ends at midnight Cairo time). The data changes at most about once an hour: poll <code>${FEED_PATH}</code> about every five minutes with <code>If-None-Match</code>, as the <a href="${DOCS_PATH}#conditional-requests">documentation</a> shows.</p>
<h2 id="contact">Contact</h2>
<p>If you use the feed in production or at volume, identify yourself: send an <code>X-Contact</code> request header with a URL or an e-mail address where we can reach you (or put it in your <code>User-Agent</code>). It is optional, it lets us warn you before a change, and anonymous heavy traffic is limited first.</p>
<h2 id="privacy">Privacy</h2>
<p>To enforce the limits, the service counts requests per client address for the current minute and the current Cairo day; the counters expire by themselves. No other personal data is kept, and there are no cookies.</p>`,
  },
  ar: {
    title: "شروط الاستخدام · Price Feed",
    description: "للعلم فقط وليست نصيحة مالية؛ الترخيص والإسناد والتواصل.",
    body: (t) => html`<h1>شروط الاستخدام</h1>
<h2 id="information-only">للعلم فقط</h2>
<p>كل ما في هذا الموقع للعلم فقط، وليس نصيحة مالية ولا عرضًا للشراء أو البيع. الأسعار استرشادية: هي ما نشرته البنوك وشركات الصرافة وتجار الذهب المرخصون أو ما رُصد من أسعارهم، ويُجمع مرة كل ساعة تقريبًا على الأكثر. قد تتعامل الجهة بسعر مختلف، وقد يتغير السعر بعد رصده، فتأكد من الجهة قبل أن تتعامل. الوصف («الشراء أرخص من المعتاد»، «تبيع بسعر قريب من المعتاد»…) يقارن أفضل سعر بالأيام السابقة؛ هو وصف لما مضى، وليس توقعًا ولا توصية بالشراء أو البيع أو الانتظار.</p>
<p>تُقدَّم الخدمة كما هي دون أي ضمان، وقد تتغير أو تتوقف. لا تظهر إلا الجهات المرخصة، وظهور جهة هنا ليس تزكية لها.</p>
<p class="note" lang="en" dir="ltr">${t.disclaimer}</p>
<h2 id="licence">ترخيص البيانات</h2>
<p>البيانات مرخصة برخصة المشاع الإبداعي نسب المصنف 4.0 (CC BY 4.0): يجوز لك نسخها وإعادة نشرها والبناء عليها، تجاريًا أو غير تجاري، بشرط أن تنسبها إلى «Price Feed» مع رابط لهذا الموقع وأن تحتفظ بالإسنادات أدناه.</p>
<p class="note" lang="en" dir="ltr">${t.license}</p>
<h2 id="attribution">الإسناد</h2>
<p>الأسعار الرسمية هي أسعار <strong>البنك المركزي المصري</strong>، الذي يطلب ذكره مصدرًا أينما أُعيد نشر أسعاره: «المصدر: البنك المركزي المصري». تظهر في البيانات باسم <code>benchmark</code> وفي السلسلة اليومية باسم <code>bench</code>.${t.simulated ? " في هذه العينة المحاكاة هي أرقام مولّدة تحل محل أسعار البنك فقط." : ""}</p>
<p>المصادر التي يقرأ منها هذا الموقع:</p>
${t.sources}
<h2 id="fair-use">الاستخدام العادل والحدود</h2>
<p>بلا مفتاح وبلا تسجيل. لكل عنوان ${count(WINDOW_LIMIT, "ar")} طلبًا كل ${count(WINDOW_SECONDS, "ar")} ثانية ونحو ${count(DAILY_LIMIT, "ar")} طلب في اليوم (ينتهي اليوم عند منتصف الليل بتوقيت القاهرة). تتغير البيانات مرة كل ساعة تقريبًا على الأكثر، فيكفي أن تطلب <code>${FEED_PATH}</code> كل خمس دقائق تقريبًا مع <code>If-None-Match</code> كما يشرح <a href="${DOCS_PATH}#conditional-requests" hreflang="en">التوثيق</a> (بالإنجليزية).</p>
<h2 id="contact">التواصل</h2>
<p>إن كنت تستخدم البيانات في خدمة فعلية أو بكثرة، فعرّف بنفسك: أرسل ترويسة <code>X-Contact</code> فيها رابط أو بريد إلكتروني نصل إليك به (أو ضعه في <code>User-Agent</code>). هذا اختياري، ويتيح لنا تنبيهك قبل أي تغيير، والاستخدام الكثيف المجهول هو أول ما يُقيَّد.</p>
<h2 id="privacy">الخصوصية</h2>
<p>لتطبيق الحدود تعدّ الخدمة الطلبات لكل عنوان في الدقيقة الحالية وفي يوم القاهرة الحالي، وتنتهي العدادات من تلقاء نفسها. لا تُحفظ أي بيانات شخصية أخرى، ولا توجد ملفات تعريف ارتباط (كوكيز).</p>`,
  },
});
