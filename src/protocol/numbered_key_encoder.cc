#include "protocol/numbered_key_encoder.h"

#include <cstring>

#include "protocol/decimal.h"

namespace dfbench::protocol {
namespace {

// Bytes past a literal's end that Encode may write, then gives back: the output holds them for
// the moment and literals_ holds them at its end.
constexpr size_t kCopySlack = 32;

// Copies a literal of up to 32 bytes as two 16-byte moves, past its end into the slack that
// follows it in both places: a copy of constant size is inlined, one of varying size is a call.
void CopyLiteral(char* to, const char* from, size_t size) {
  if (size > kCopySlack) {
    std::memcpy(to, from, size);
    return;
  }
  std::memcpy(to, from, 16);
  if (size > 16) std::memcpy(to + 16, from + 16, 16);
}

}  // namespace

// Lays out one digit count's steps, merging neighbouring bytes into one literal.
class NumberedKeyEncoder::Builder {
 public:
  Builder(NumberedKeyEncoder* encoder, size_t digits)
      : encoder_(encoder), layout_(&encoder->layouts_[digits - 1]), digits_(digits) {
    layout_->first_step = static_cast<uint32_t>(encoder->steps_.size());
  }
  ~Builder() {
    if (!text_.empty()) Add({});
  }
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  size_t digits() const { return digits_; }
  void Text(std::string_view bytes) { text_.append(bytes); }
  void Number(size_t n) { text_.append(std::to_string(n)); }
  void Digits() {
    Add({.then = Step::Then::kDigits});
    layout_->fixed_bytes += static_cast<uint32_t>(digits_);
  }
  void Data() {
    Add({.then = Step::Then::kData});
    ++layout_->datas;
  }
  // The decimal of fixed + datas * the value's size.
  void Length(size_t fixed, uint16_t datas) {
    Add({.then = Step::Then::kLength,
         .datas = datas,
         .length_fixed = static_cast<uint32_t>(fixed)});
    layout_->has_lengths = true;
  }

 private:
  // `step` after the bytes gathered since the last one.
  void Add(Step step) {
    std::string& literals = encoder_->literals_;
    step.offset = static_cast<uint32_t>(literals.size());
    step.size = static_cast<uint32_t>(text_.size());
    literals.append(text_);
    layout_->fixed_bytes += step.size;
    text_.clear();
    encoder_->steps_.push_back(step);
    ++layout_->steps;
  }

  NumberedKeyEncoder* encoder_;
  Layout* layout_;
  size_t digits_;
  std::string text_;
};

template <class LayOut>
NumberedKeyEncoder NumberedKeyEncoder::Build(LayOut lay_out) {
  NumberedKeyEncoder encoder;
  for (size_t digits = 1; digits <= kMaxDigits; ++digits) {
    Builder b(&encoder, digits);
    lay_out(b);
  }
  encoder.literals_.append(kCopySlack, '\0');
  return encoder;
}

NumberedKeyEncoder NumberedKeyEncoder::ForTemplate(const CommandTemplate& t,
                                                   std::string_view key_prefix,
                                                   std::optional<size_t> fixed_data_size) {
  using Piece = CommandTemplate::Piece;
  return Build([&](Builder& b) {
    for (const Piece& piece : t.pieces_) {
      switch (piece.kind) {
        case Piece::Kind::kLiteral:
          b.Text(std::string_view(t.literals_).substr(piece.offset, piece.size));
          break;
        case Piece::Kind::kLength: {
          const size_t fixed = piece.size + piece.keys * (key_prefix.size() + b.digits());
          b.Text("$");
          if (piece.datas == 0 || fixed_data_size) {
            b.Number(fixed + piece.datas * fixed_data_size.value_or(0));
          } else {
            b.Length(fixed, piece.datas);
          }
          b.Text("\r\n");
          break;
        }
        case Piece::Kind::kKey:
          b.Text(key_prefix);
          b.Digits();
          break;
        case Piece::Kind::kData:
          b.Data();
          break;
      }
    }
  });
}

NumberedKeyEncoder NumberedKeyEncoder::ForMemcacheGet(std::string_view key_prefix) {
  return Build([&](Builder& b) {
    b.Text("get ");
    b.Text(key_prefix);
    b.Digits();
    b.Text("\r\n");
  });
}

NumberedKeyEncoder NumberedKeyEncoder::ForMemcacheSet(std::string_view key_prefix,
                                                      std::optional<size_t> fixed_data_size) {
  return Build([&](Builder& b) {
    b.Text("set ");
    b.Text(key_prefix);
    b.Digits();
    b.Text(" 0 0 ");
    if (fixed_data_size) {
      b.Number(*fixed_data_size);
    } else {
      b.Length(0, 1);
    }
    b.Text("\r\n");
    b.Data();
    b.Text("\r\n");
  });
}

void NumberedKeyEncoder::Encode(RequestBuffer* out, uint64_t number, std::string_view data) const {
  const size_t digits = DecimalDigits(number);
  const Layout& layout = layouts_[digits - 1];
  const Step* steps = steps_.data() + layout.first_step;
  const Step* steps_end = steps + layout.steps;
  size_t size = layout.fixed_bytes + layout.datas * data.size();
  if (layout.has_lengths) {
    for (const Step* step = steps; step != steps_end; ++step) {
      if (step->then == Step::Then::kLength) {
        size += DecimalDigits(step->length_fixed + step->datas * data.size());
      }
    }
  }
  const size_t start = out->size();
  char* p = out->Extend(size + kCopySlack);
  for (const Step* step = steps; step != steps_end; ++step) {
    CopyLiteral(p, literals_.data() + step->offset, step->size);
    p += step->size;
    switch (step->then) {
      case Step::Then::kNothing:
        break;
      case Step::Then::kDigits:
        p += digits;
        WriteDigitsBefore(p, number);
        break;
      case Step::Then::kData:
        std::memcpy(p, data.data(), data.size());
        p += data.size();
        break;
      case Step::Then::kLength: {
        const uint64_t length = step->length_fixed + step->datas * data.size();
        p += DecimalDigits(length);
        WriteDigitsBefore(p, length);
        break;
      }
    }
  }
  out->Shrink(start + size);
}

}  // namespace dfbench::protocol
