import { GraduationCap, PlusCircle, Search } from 'lucide-react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import remarkMath from 'remark-math';
import { Link } from 'react-router';
import 'katex/dist/katex.min.css';
import { paths } from '#shared/paths.ts';
import { parseGuruReply, type GuruActionType } from '#shared/schemas/guru.ts';
import { Button } from '#web/components/ui/button.tsx';

// Guru AI's replies: Markdown with math. The model's text is untrusted: react-markdown builds React elements (it
// never sets HTML), raw HTML in it is dropped (skipHtml), links keep only safe protocols (its default urlTransform),
// KaTeX renders with trust off (no \href, \url or \htmlClass). KaTeX writes MathML only: its HTML output carries
// style attributes, which the page's Content Security Policy (style-src 'self') rightly refuses.

const markdownComponents: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="underline underline-offset-2">
      {children}
    </a>
  ),
  img: ({ alt }) => <span>{alt}</span>, // no images from the model: they would load from anywhere
};

/** The Markdown and math of a reply (also used for the reply while it streams in). */
export function GuruMarkdown({ text }: { text: string }) {
  return (
    <div className="guru-markdown text-[0.9375rem] leading-6 break-words [&_.katex-display]:overflow-x-auto [&_.katex-display]:py-1 [&_ol]:list-decimal [&_ol]:pl-5 [&_p]:my-1.5 [&_ul]:list-disc [&_ul]:pl-5">
      <ReactMarkdown
        skipHtml
        remarkPlugins={[remarkMath]}
        rehypePlugins={[
          [rehypeKatex, { output: 'mathml', trust: false, strict: 'ignore', throwOnError: false, maxExpand: 200 }],
        ]}
        components={markdownComponents}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}

/** SPEC.md §2: AI replies may link to /search-experts and /student/posts. */
function ExpertActions({ actionType }: { actionType: GuruActionType }) {
  if (actionType !== 'expert_help') return null;
  return (
    <span className="flex flex-wrap gap-2 pt-1">
      <Button asChild size="sm" variant="outline">
        <Link to={paths.search.experts.getHref()}>
          <Search aria-hidden="true" />
          Search for an Expert
        </Link>
      </Button>
      <Button asChild size="sm" variant="outline">
        <Link to={paths.student.posts.getHref()}>
          <PlusCircle aria-hidden="true" />
          Create a New Request
        </Link>
      </Button>
    </span>
  );
}

/** A stored reply: its text, its actions, and "Ask a tutor". Unreadable content shows as plain text. */
export function GuruReply({ content, onAskTutor }: { content: string; onAskTutor: (replyText: string) => void }) {
  const reply = parseGuruReply(content);
  return (
    <>
      <GuruMarkdown text={reply.reply} />
      <ExpertActions actionType={reply.actionType} />
      <span className="flex pt-1">
        <Button size="sm" variant="link" className="h-auto px-0" onClick={() => onAskTutor(reply.reply)}>
          <GraduationCap aria-hidden="true" />
          Ask a tutor
        </Button>
      </span>
    </>
  );
}
